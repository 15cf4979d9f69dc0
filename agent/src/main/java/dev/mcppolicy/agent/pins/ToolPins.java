package dev.mcppolicy.agent.pins;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.json.JsonPointers;
import dev.mcppolicy.pins.PinsFile;
import dev.mcppolicy.policy.Action;
import dev.mcppolicy.policy.Mode;
import dev.mcppolicy.policy.Pinning;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.ServerPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Pinned tool definitions, client side (SPEC §14): for each server a client lists tools from, the SHA-256 of each tool's
 * canonical definition as pinned (read from the policy's {@code pins} file, else taken at the server's first
 * {@code tools/list} in this JVM), against the hash of the definition the server listed last. A tool whose definition
 * differs from its pin is hidden from the client's lists and its calls are denied ({@value #CHANGED_REASON}), with one
 * WARN carrying both hashes; a tool with no pin once the server's tools are pinned is treated by {@code pin_new}. One per
 * JVM, shared by the client hooks and the admin endpoint ({@code /api/pins}).
 *
 * <p>A server is known by its {@code serverInfo.name} and the address the client reached it at; the pins file is keyed
 * by the name (or by the address). With a pins file that cannot be read, every tool of a pinned server is hidden and
 * its calls denied (fail closed) until the file reads again.
 */
public final class ToolPins {
    public static final String CHANGED_REASON = "tool definition changed since it was pinned";
    public static final String NEW_REASON = "tool was not pinned (pin_new: deny)";
    public static final String UNREADABLE_REASON = "the pins file cannot be read (fail closed)";
    private static final ToolPins SHARED = new ToolPins();
    /** With {@code reload=true}, how stale the pins file read may get before it is looked at again. */
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** What a tool is against its pin. */
    public enum State {
        PINNED, CHANGED, NEW, UNREADABLE;

        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Map<String, ServerPins> servers = new ConcurrentHashMap<>();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private volatile boolean reloading;
    /** The last policy asked about and whether it pins, in one reference so a reload cannot pair one with the other's answer. */
    private volatile Asked lastAsked = new Asked(null, false);
    private volatile Read read;

    /** The pins of this JVM's clients. */
    public static ToolPins shared() {
        return SHARED;
    }

    /** Nanoseconds, for how stale the pins file read is: {@code System::nanoTime}, a test's own clock in tests. */
    private final java.util.function.LongSupplier nanos;

    ToolPins() {
        this(System::nanoTime);
    }

    ToolPins(java.util.function.LongSupplier nanos) {
        this.nanos = nanos;
    }

    /** With {@code reload=true} a changed pins file is read again (within a second of a list or call that needs it). */
    public void reloading(boolean enabled) {
        reloading = enabled;
    }

    /** The pins file as last read: the file, when it was seen as it is, and its pins or why it cannot be read. */
    private record Read(Path file, String fingerprint, long checkedAt, PinsFile pins, String error) {
    }

    /** One server's tools, as pinned and as last listed. */
    private static final class ServerPins {
        final String name;
        final String address;
        /** The definition hash each tool had at its last list. */
        final Map<String, String> listed = new ConcurrentHashMap<>();
        /** Pins taken in this JVM: at the server's first list (no pins file entry), or for a new tool by {@code pin_new: allow}. */
        final Map<String, String> taken = new ConcurrentHashMap<>();
        volatile boolean firstListed;

        ServerPins(String name, String address) {
            this.name = name;
            this.address = address;
        }
    }

    /** Whether a policy pins anything: a policy without pins costs one volatile read and an identity check per call. */
    public boolean pinsTools(PolicySnapshot snapshot) {
        return pins(snapshot);
    }

    private boolean pins(PolicySnapshot snapshot) {
        if (snapshot.engine() == null) {
            return false;
        }
        Policy policy = snapshot.engine().policy();
        Asked asked = lastAsked;
        if (asked.policy != policy) {
            asked = new Asked(policy, policy.pinsTools());
            lastAsked = asked;
        }
        return asked.pins;
    }

    /** A plain class, not a record: a record's equals would spin method-handle classes on first use (issue 16). */
    private static final class Asked {
        final Policy policy;
        final boolean pins;

        Asked(Policy policy, boolean pins) {
            this.policy = policy;
            this.pins = pins;
        }
    }

    /** Whether tools of a server judged under {@code section} are pinned, and where the policy says so. */
    private static String pinPointer(Policy policy, String section) {
        Pinning own = section == null ? Pinning.NONE : sectionPinning(policy, section);
        if (own.pin() != null) {
            return own.pin() ? "/servers/" + JsonPointers.escape(section) + "/pin" : null;
        }
        Pinning top = policy.pinning();
        if (top.pin() != null) {
            return top.pin() ? "/pin" : null;
        }
        return top.pinsFile() != null ? "/pins" : null;
    }

    private static Pinning sectionPinning(Policy policy, String section) {
        ServerPolicy server = policy.servers().get(section);
        return server == null ? Pinning.NONE : server.pinning();
    }

    /** {@code pin_new} for the section, and its pointer (the pin's when {@code pin_new} is not written: deny). */
    private static String[] pinNew(Policy policy, String section, String pinPointer) {
        Pinning own = section == null ? Pinning.NONE : sectionPinning(policy, section);
        if (own.pinNew() != null) {
            return new String[] {own.pinNew() == Action.ALLOW ? "allow" : "deny", "/servers/" + JsonPointers.escape(section) + "/pin_new"};
        }
        Action top = policy.pinning().pinNew();
        return top != null ? new String[] {top == Action.ALLOW ? "allow" : "deny", "/pin_new"} : new String[] {"deny", pinPointer};
    }

    private ServerPins server(String name, String address) {
        return servers.computeIfAbsent(name + "\u0000" + address, key -> new ServerPins(name, address));
    }

    /**
     * A client listed {@code definitions} (tool name to definition hash, {@link dev.mcppolicy.pins.ToolDefinitions}) from the
     * server {@code name} at {@code address}, judged under {@code section}: pins what is not pinned yet where the policy
     * says so, and answers the tools to hide (empty: none; with the policy in monitor mode, none, the WARNs still said).
     */
    public Set<String> listed(PolicySnapshot snapshot, String name, String address, String section, Map<String, String> definitions) {
        return listed(snapshot, name, address, section, definitions, false);
    }

    /**
     * {@link #listed(PolicySnapshot, String, String, String, Map)} for one page of a list: {@code morePages} when the
     * page has a {@code nextCursor}. Until a server's first list is complete (a page without one), every page's tools
     * are pinned as first seen.
     */
    public Set<String> listed(PolicySnapshot snapshot, String name, String address, String section, Map<String, String> definitions,
                              boolean morePages) {
        if (!pins(snapshot)) {
            return Set.of();
        }
        Policy policy = snapshot.engine().policy();
        String pinPointer = pinPointer(policy, section);
        if (pinPointer == null) {
            return Set.of();
        }
        ServerPins server = server(name, address);
        Read file = pinsFile(snapshot);
        Map<String, String> filed = filed(file, name, address);
        String[] pinNew = pinNew(policy, section, pinPointer);
        boolean monitor = policy.mode() == Mode.MONITOR;
        Set<String> hidden = new java.util.TreeSet<>();
        synchronized (server) {
            boolean first = !server.firstListed && filed == null && file.error == null;
            server.listed.putAll(definitions);
            if (first) {
                server.taken.putAll(definitions);
                if (!morePages) {
                    server.firstListed = true;
                    Diagnostics.info("pinned the " + server.taken.size() + " tool definitions of server " + describe(server)
                            + " at its first tools/list (" + pinPointer + "); a later change hides the tool and denies its calls");
                }
                return Set.of();
            }
            for (Map.Entry<String, String> tool : definitions.entrySet()) {
                State state = state(server, file, filed, tool.getKey(), tool.getValue());
                if (state == State.NEW && pinNew[0].equals("allow")) {
                    server.taken.put(tool.getKey(), tool.getValue());
                    Diagnostics.info("pinned new tool '" + tool.getKey() + "' of server " + describe(server) + " (pin_new: allow"
                            + ", " + pinNew[1] + "), sha256=" + tool.getValue());
                    continue;
                }
                if (state == State.PINNED) {
                    continue;
                }
                hidden.add(tool.getKey());
                warnOnce(server, file, filed, tool.getKey(), tool.getValue(), state, monitor);
            }
        }
        return monitor ? Set.of() : hidden;
    }

    /**
     * The decision for a call of {@code tool} when its pin refuses it ({@code DENY}, the rule the policy's {@code pin},
     * {@code pins} or {@code pin_new}); {@code null} when the pins have nothing against it (a tool the client calls
     * without having listed it is judged by its pin alone: nothing against it while the server's last list did not
     * show it changed). In monitor mode, {@code null}: the list's WARN said it.
     */
    public Decision refusal(PolicySnapshot snapshot, String name, String address, String section, String tool) {
        if (!pins(snapshot)) {
            return null;
        }
        Policy policy = snapshot.engine().policy();
        String pinPointer = pinPointer(policy, section);
        if (pinPointer == null || policy.mode() == Mode.MONITOR) {
            return null;
        }
        ServerPins server = servers.get(name + "\u0000" + address);
        Read file = pinsFile(snapshot);
        if (file.error != null) {
            return new Decision(Effect.DENY, Effect.DENY, "/pins", UNREADABLE_REASON, 0);
        }
        Map<String, String> filed = filed(file, name, address);
        String listed = server == null ? null : server.listed.get(tool);
        if (listed == null) {
            return null;
        }
        State state = state(server, file, filed, tool, listed);
        if (state == State.CHANGED) {
            return new Decision(Effect.DENY, Effect.DENY, pinPointer, CHANGED_REASON, 0);
        }
        if (state == State.NEW) {
            String[] pinNew = pinNew(policy, section, pinPointer);
            return pinNew[0].equals("allow") ? null : new Decision(Effect.DENY, Effect.DENY, pinNew[1], NEW_REASON, 0);
        }
        return null;
    }

    private static State state(ServerPins server, Read file, Map<String, String> filed, String tool, String hash) {
        if (file.error != null) {
            return State.UNREADABLE;
        }
        String pinned = filed != null && filed.containsKey(tool) ? filed.get(tool) : server == null ? null : server.taken.get(tool);
        if (pinned == null) {
            // a server with neither a file entry nor a first list yet has nothing pinned: nothing is new to it
            return filed == null && (server == null || !server.firstListed) ? State.PINNED : State.NEW;
        }
        return pinned.equals(hash) ? State.PINNED : State.CHANGED;
    }

    private static String pinnedHash(ServerPins server, Map<String, String> filed, String tool) {
        return filed != null && filed.containsKey(tool) ? filed.get(tool) : server.taken.get(tool);
    }

    private void warnOnce(ServerPins server, Read file, Map<String, String> filed, String tool, String hash, State state,
                          boolean monitor) {
        // an unreadable file: one WARN per server (and file error), not one per tool
        String key = state == State.UNREADABLE ? server.name + "\u0000" + server.address + "\u0000" + file.error
                : server.name + "\u0000" + server.address + "\u0000" + tool + "\u0000" + hash + "\u0000" + state;
        if (!warned.add(key)) {
            return;
        }
        String outcome = monitor ? "; mode: monitor, so it stays listed and callable" : "; hidden, its calls denied";
        switch (state) {
            case CHANGED:
                Diagnostics.warn("pin: " + CHANGED_REASON + ": tool '" + tool + "' of server " + describe(server) + " pinned="
                        + pinnedHash(server, filed, tool) + " now=" + hash + " (pinned " + (filed != null && filed.containsKey(tool)
                        ? "in " + file.file : "at its first tools/list") + ")" + outcome);
                break;
            case NEW:
                Diagnostics.warn("pin: " + NEW_REASON + ": tool '" + tool + "' of server " + describe(server) + " sha256=" + hash
                        + outcome);
                break;
            default:
                Diagnostics.warn("pin: " + UNREADABLE_REASON + ": every tool of server " + describe(server)
                        + (monitor ? " stays listed and callable (mode: monitor)" : " is hidden, its calls denied"));
        }
    }

    private static String describe(ServerPins server) {
        return "'" + server.name + "'" + (server.address == null ? "" : " at " + server.address);
    }

    private static Map<String, String> filed(Read file, String name, String address) {
        if (file.pins == null) {
            return null;
        }
        Map<String, String> tools = file.pins.tools(name);
        return tools != null ? tools : file.pins.tools(address);
    }

    /** The pins file the policy names, read when first needed, again when the policy changes, and with reload when it does. */
    private Read pinsFile(PolicySnapshot snapshot) {
        String named = snapshot.engine().policy().pinning().pinsFile();
        if (named == null) {
            return NO_FILE;
        }
        Path base = snapshot.path() == null ? null : snapshot.path().toAbsolutePath().getParent();
        Path file = base == null ? Path.of(named).toAbsolutePath() : base.resolve(named).normalize();
        Read last = read;
        long now = nanos.getAsLong();
        if (last != null && last.file.equals(file) && (!reloading || now - last.checkedAt < RECHECK_NANOS)) {
            return last;
        }
        synchronized (this) {
            last = read;
            if (last != null && last.file.equals(file) && (!reloading || now - last.checkedAt < RECHECK_NANOS)) {
                return last;
            }
            String fingerprint = fingerprint(file);
            Read next;
            if (last != null && last.file.equals(file) && last.fingerprint.equals(fingerprint)) {
                next = new Read(file, fingerprint, now, last.pins, last.error);
            } else {
                next = readFile(file, fingerprint, now, last != null && last.file.equals(file));
            }
            read = next;
            return next;
        }
    }

    private static final Read NO_FILE = new Read(Path.of(""), "", 0, null, null);

    private static Read readFile(Path file, String fingerprint, long now, boolean again) {
        try {
            PinsFile pins = PinsFile.read(file);
            Diagnostics.info("pins: " + (again ? "read again " : "read ") + file + " (" + pins.servers().size() + " servers, "
                    + pins.toolCount() + " tools, sha256=" + sha256(file) + ")");
            return new Read(file, fingerprint, now, pins, null);
        } catch (PolicyException e) {
            String error = e.getMessage().replace('\n', ' ');
            Diagnostics.error("pins: cannot use " + file + ": " + error + "; every tool of a pinned server is hidden and its "
                    + "calls denied until the file reads (fail closed)");
            return new Read(file, fingerprint, now, null, error);
        }
    }

    private static String sha256(Path file) {
        try {
            return CanonicalJson.sha256Hex(Files.readAllBytes(file));
        } catch (IOException e) {
            return "?";
        }
    }

    private static String fingerprint(Path file) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return attributes.size() + "/" + attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS) + "/" + attributes.fileKey();
        } catch (IOException e) {
            return "missing";
        }
    }

    /** {@code /api/pins}: each server's tools with their state, pinned and listed hashes; the pins file and its state. */
    public Map<String, Object> view(PolicySnapshot snapshot) {
        Map<String, Object> out = new LinkedHashMap<>();
        boolean pinning = pins(snapshot);
        out.put("pinning", pinning);
        Read file = pinning ? pinsFile(snapshot) : NO_FILE;
        Map<String, Object> fileView = null;
        if (file != NO_FILE) {
            fileView = new LinkedHashMap<>();
            fileView.put("path", file.file.toString());
            fileView.put("error", file.error);
            fileView.put("servers", file.pins == null ? 0 : file.pins.servers().size());
            fileView.put("tools", file.pins == null ? 0 : file.pins.toolCount());
        }
        out.put("file", fileView);
        List<Object> list = new ArrayList<>();
        for (ServerPins server : new TreeMap<>(servers).values()) {
            Map<String, String> filed = filed(file, server.name, server.address);
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("server", server.name);
            entry.put("address", server.address);
            entry.put("source", file.error != null ? "unreadable file" : filed != null ? "file" : "first list");
            List<Object> tools = new ArrayList<>();
            for (Map.Entry<String, String> tool : new TreeMap<>(server.listed).entrySet()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("tool", tool.getKey());
                row.put("state", state(server, file, filed, tool.getKey(), tool.getValue()).word());
                row.put("pinned", pinnedHash(server, filed, tool.getKey()));
                row.put("listed", tool.getValue());
                tools.add(row);
            }
            entry.put("tools", tools);
            list.add(entry);
        }
        out.put("servers", list);
        return out;
    }
}
