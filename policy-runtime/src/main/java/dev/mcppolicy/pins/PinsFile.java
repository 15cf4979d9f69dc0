package dev.mcppolicy.pins;

import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.json.JsonPointers;
import dev.mcppolicy.policy.PolicyError;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.internal.Node;
import dev.mcppolicy.policy.internal.TreeReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A pins file (SPEC §14): the SHA-256 of each tool's canonical definition ({@link ToolDefinitions}), by server and tool.
 * <pre>{"version": "1", "servers": {"github": {"tools": {"get_issue": "9f2c...", ...}}, ...}}</pre>
 * Servers are keyed by {@code serverInfo.name} (or the address a {@code servers} section uses: {@code stdio:...},
 * {@code url:...}). {@code scan --pins FILE} writes one; the agent reads it with the policy that names it.
 *
 * @param servers tool hashes by tool name, by server; sorted, unmodifiable
 */
public record PinsFile(Map<String, Map<String, String>> servers) {
    public PinsFile {
        Map<String, Map<String, String>> copy = new TreeMap<>();
        servers.forEach((server, tools) -> copy.put(server, Collections.unmodifiableMap(new TreeMap<>(tools))));
        servers = Collections.unmodifiableMap(copy);
    }

    /** A file with no server. */
    public static final PinsFile EMPTY = new PinsFile(Map.of());

    /** The tool hashes of the server {@code key}, or {@code null} when the file has none for it. */
    public Map<String, String> tools(String key) {
        return key == null ? null : servers.get(key);
    }

    /** This file with the tools of {@code server} replaced by {@code tools}. */
    public PinsFile with(String server, Map<String, String> tools) {
        Map<String, Map<String, String>> next = new TreeMap<>(servers);
        next.put(server, tools);
        return new PinsFile(next);
    }

    /** The number of tools pinned, over all servers. */
    public int toolCount() {
        int count = 0;
        for (Map<String, String> tools : servers.values()) {
            count += tools.size();
        }
        return count;
    }

    /** The file's JSON, pretty-printed, keys sorted. */
    public String json() {
        StringBuilder out = new StringBuilder("{\n  \"version\": \"1\",\n  \"servers\": {");
        int s = 0;
        for (Map.Entry<String, Map<String, String>> server : servers.entrySet()) {
            out.append(s++ == 0 ? "\n" : ",\n").append("    ").append(CanonicalJson.write(server.getKey())).append(": {\"tools\": {");
            int t = 0;
            for (Map.Entry<String, String> tool : server.getValue().entrySet()) {
                out.append(t++ == 0 ? "\n" : ",\n").append("      ").append(CanonicalJson.write(tool.getKey())).append(": \"")
                        .append(tool.getValue()).append('"');
            }
            out.append(t == 0 ? "}}" : "\n    }}");
        }
        return out.append(s == 0 ? "}\n}\n" : "\n  }\n}\n").toString();
    }

    /** Writes the file: to a temporary file beside it, then moved over it, so a reader never sees half of it. */
    public void write(Path file) throws IOException {
        Path target = file.toAbsolutePath();
        Path temporary = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
        try {
            Files.writeString(temporary, json(), StandardCharsets.UTF_8);
            try {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException atomicMoveUnsupported) {
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** Reads a pins file; every problem is a {@link PolicyError} with its JSON pointer, line and column. */
    public static PinsFile read(Path file) throws PolicyException {
        String name = file.toString();
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), name);
        } catch (NoSuchFileException e) {
            throw new PolicyException(name, List.of(new PolicyError("", 0, 0, "file not found (write one with: java -jar "
                    + "mcp-policy-agent.jar scan --pins " + file.getFileName() + " -- <server command>)")));
        } catch (IOException e) {
            throw new PolicyException(name, List.of(new PolicyError("", 0, 0, "cannot read the file: " + e)));
        }
    }

    /** Parses a pins file's text. */
    public static PinsFile parse(String text, String sourceName) throws PolicyException {
        List<PolicyError> errors = new ArrayList<>();
        Node root = new TreeReader(errors).read(text, TreeReader.Format.JSON);
        Map<String, Map<String, String>> servers = new TreeMap<>();
        if (root != null) {
            bind(root, servers, errors);
        }
        if (!errors.isEmpty()) {
            errors.sort(Comparator.comparingInt(PolicyError::line).thenComparingInt(PolicyError::column));
            throw new PolicyException(sourceName, errors);
        }
        return new PinsFile(servers);
    }

    private static void bind(Node root, Map<String, Map<String, String>> servers, List<PolicyError> errors) {
        if (!root.is(Node.Kind.OBJECT)) {
            errors.add(error("", root, "expected an object {\"version\": \"1\", \"servers\": {...}}, got " + root.describe()));
            return;
        }
        for (Map.Entry<String, Node> field : root.fields().entrySet()) {
            if (!field.getKey().equals("version") && !field.getKey().equals("servers")) {
                errors.add(error("/" + JsonPointers.escape(field.getKey()), field.getValue(), "unknown key '" + field.getKey()
                        + "'; expected version, servers"));
            }
        }
        Node version = root.fields().get("version");
        if (version == null || !version.is(Node.Kind.STRING) || !version.text().equals("1")) {
            errors.add(error("/version", version == null ? root : version, "expected \"1\", got "
                    + (version == null ? "nothing" : version.describe())));
        }
        Node all = root.fields().get("servers");
        if (all == null || !all.is(Node.Kind.OBJECT)) {
            errors.add(error("/servers", all == null ? root : all, "expected an object keyed by server name, got "
                    + (all == null ? "nothing" : all.describe())));
            return;
        }
        for (Map.Entry<String, Node> server : all.fields().entrySet()) {
            String at = "/servers/" + JsonPointers.escape(server.getKey());
            Node section = server.getValue();
            Node tools = section.is(Node.Kind.OBJECT) ? section.fields().get("tools") : null;
            if (tools == null || !tools.is(Node.Kind.OBJECT) || section.fields().size() != 1) {
                errors.add(error(at, section, "expected {\"tools\": {\"<tool>\": \"<sha256>\", ...}}, got " + section.describe()));
                continue;
            }
            Map<String, String> hashes = new TreeMap<>();
            for (Map.Entry<String, Node> tool : tools.fields().entrySet()) {
                Node hash = tool.getValue();
                if (!hash.is(Node.Kind.STRING) || !hash.text().matches("[0-9a-f]{64}")) {
                    errors.add(error(at + "/tools/" + JsonPointers.escape(tool.getKey()), hash,
                            "expected the tool definition's SHA-256 as 64 lowercase hex digits, got " + hash.describe()));
                    continue;
                }
                hashes.put(tool.getKey(), hash.text());
            }
            servers.put(server.getKey(), hashes);
        }
    }

    private static PolicyError error(String pointer, Node node, String message) {
        return new PolicyError(pointer, node.line(), node.column(), message);
    }
}
