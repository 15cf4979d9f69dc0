package dev.mcppolicy.agent.scan;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mcppolicy.pins.PinsFile;
import dev.mcppolicy.pins.ToolDefinitions;
import dev.mcppolicy.policy.Durations;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.PolicyParser;
import dev.mcppolicy.policy.ToolRisk;
import dev.mcppolicy.scan.RiskCategorizer;
import dev.mcppolicy.scan.ScannedTool;
import dev.mcppolicy.scan.StarterPolicy;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code java -jar mcp-policy-agent.jar scan [-o FILE] [--format json|yaml] [--timeout 10s] [--pins PINS.json] (--url URL
 * [--header "Name: value"]... | -- COMMAND ARGS...)} (SPEC §9): asks an MCP server for its tools and
 * writes a starter policy for them ({@link StarterPolicy}). The policy goes to FILE or stdout; what was
 * found, tool by tool, goes to stderr. It speaks MCP with its own small JSON-RPC client ({@link ToolLister}
 * over {@link StdioChannel} or {@link HttpChannel}): two requests do not warrant bundling an SDK. With
 * {@code --pins PINS.json} it also pins the tools' definitions (SPEC §14): the SHA-256 of each one's canonical
 * definition ({@link ToolDefinitions}) under the server's {@code serverInfo.name}, in that file (created, or updated:
 * other servers' pins are kept), for a policy's {@code pins:}.
 *
 * <p>Exit codes: 0 the policy was written; 1 the server could not be started or reached, exited, or
 * answered with an error or with what is not MCP; 2 a usage error or an output file that cannot be
 * written; 3 the server did not answer within the timeout.
 */
public final class ScanCommand {
    static final int USAGE_EXIT = 2;
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    static final String USAGE = "usage: scan [-o FILE] [--format json|yaml] [--timeout 10s] [--pins PINS.json] -- COMMAND ARGS...\n"
            + "       scan [-o FILE] [--format json|yaml] [--timeout 10s] [--pins PINS.json] --url http://HOST:PORT/mcp"
            + " [--header \"Name: value\"]...";

    private final PrintStream out;
    private final PrintStream err;
    private final ObjectMapper json = new ObjectMapper();

    ScanCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return new ScanCommand(out, err).scan(args);
    }

    /** The parsed command line. */
    private record Options(Path output, PolicyParser.Format format, Duration timeout, URI url, Map<String, String> headers,
                           List<String> command, Path pins) {
    }

    int scan(String[] args) {
        Options options;
        try {
            options = options(args);
        } catch (IllegalArgumentException e) {
            err.println("scan: " + e.getMessage());
            err.println(USAGE);
            return USAGE_EXIT;
        }
        long deadline = System.nanoTime() + options.timeout().toNanos();
        ToolLister.Listing listing;
        McpChannel channel = null;
        try {
            channel = options.url() != null ? new HttpChannel(json, options.url(), options.headers(), options.timeout())
                    : StdioChannel.start(json, options.command());
            listing = new ToolLister(json, channel).list(deadline);
        } catch (ScanException e) {
            err.println("scan: " + e.getMessage());
            if (e.exitCode() == ScanException.TIMEOUT) {
                err.println("scan: gave up after " + Durations.format(options.timeout()) + " (--timeout); the server was stopped");
            }
            return e.exitCode();
        } finally {
            if (channel != null) {
                channel.close();
            }
        }
        return write(listing, options);
    }

    private int write(ToolLister.Listing listing, Options options) {
        if (options.pins() != null) {
            int pinned = pin(listing, options);
            if (pinned != 0) {
                return pinned;
            }
        }
        StarterPolicy starter = StarterPolicy.of(listing.tools());
        String server = listing.serverName().isEmpty() ? "the server" : listing.serverName()
                + (listing.serverVersion().isEmpty() ? "" : " " + listing.serverVersion());
        String text = options.format() == PolicyParser.Format.YAML ? starter.yaml(List.of(
                "Starter policy for " + oneLine(server) + ", written by mcp-policy-agent scan from its " + listing.tools().size() + " tools.",
                "Each rule's reason says which category its tool got and why. The categories are guesses from the",
                "tools' annotations and names: review every rule before you rely on it.")) : starter.json();
        try {
            PolicyParser.parse(text, options.format(), "the written policy");
        } catch (PolicyException e) {
            err.println("scan: internal error: the written policy does not parse: " + e.getMessage());
            return ScanException.SERVER;
        }
        err.println("scan: " + oneLine(server) + " (protocol " + oneLine(listing.protocolVersion()) + ") lists "
                + listing.tools().size() + (listing.tools().size() == 1 ? " tool" : " tools"));
        Map<ToolRisk, Integer> counts = new EnumMap<>(ToolRisk.class);
        for (RiskCategorizer.Categorized tool : starter.categorized()) {
            counts.merge(tool.risk(), 1, Integer::sum);
            err.println(String.format(Locale.ROOT, "  %-12s %s: %s", word(tool.risk()), oneLine(tool.tool().name()), tool.evidence()));
        }
        for (String skipped : starter.skipped()) {
            err.println(String.format(Locale.ROOT, "  %-12s %s", "no rule", skipped));
        }
        List<String> tally = new ArrayList<>();
        counts.forEach((risk, count) -> tally.add(count + " " + word(risk)));
        String summary = "default deny" + (tally.isEmpty() ? "" : "; " + String.join(", ", tally));
        if (options.output() == null) {
            out.print(text);
            out.flush();
            err.println("scan: wrote the policy to stdout (" + summary + ")");
            return 0;
        }
        try {
            Files.writeString(options.output(), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("scan: cannot write " + options.output() + ": " + e);
            return USAGE_EXIT;
        }
        err.println("scan: wrote " + options.output() + " (" + summary + "); review it, then: java -jar mcp-policy-agent.jar check "
                + options.output());
        return 0;
    }

    /** Writes the listed tools' pins into {@code --pins}; 0, or the exit code of a file that cannot be read or written. */
    private int pin(ToolLister.Listing listing, Options options) {
        Path file = options.pins();
        String server = listing.serverName().isEmpty() ? address(options) : listing.serverName();
        PinsFile pins = PinsFile.EMPTY;
        if (Files.exists(file)) {
            try {
                pins = PinsFile.read(file);
            } catch (PolicyException e) {
                err.println("scan: cannot update " + file + ", which is not a pins file: " + e.getMessage());
                return USAGE_EXIT;
            }
        }
        Map<String, String> tools = new TreeMap<>();
        for (ScannedTool tool : listing.tools()) {
            tools.put(tool.name(), ToolDefinitions.sha256(tool.name(), tool.description(), tool.inputSchema(), tool.annotations()));
        }
        Map<String, String> before = pins.tools(server);
        try {
            pins.with(server, tools).write(file);
        } catch (IOException e) {
            err.println("scan: cannot write " + file + ": " + e);
            return USAGE_EXIT;
        }
        String change = "";
        if (before != null) {
            int changed = 0;
            int added = 0;
            for (Map.Entry<String, String> tool : tools.entrySet()) {
                String old = before.get(tool.getKey());
                if (old == null) {
                    added++;
                } else if (!old.equals(tool.getValue())) {
                    changed++;
                }
            }
            int removed = 0;
            for (String tool : before.keySet()) {
                if (!tools.containsKey(tool)) {
                    removed++;
                }
            }
            change = "; since the pins it replaced: " + changed + " changed, " + added + " new, " + removed + " gone";
        }
        err.println("scan: pinned " + tools.size() + (tools.size() == 1 ? " tool" : " tools") + " of server '" + oneLine(server)
                + "' in " + file + change + "; name it in the policy with pins: " + file.getFileName());
        return 0;
    }

    /** The address a policy's section or pins file would key a server with no name by, as the agent names it. */
    private static String address(Options options) {
        return options.url() != null ? "url:" + options.url() : "stdio:" + String.join(" ", options.command());
    }

    private static Options options(String[] args) {
        Path output = null;
        PolicyParser.Format format = null;
        Duration timeout = DEFAULT_TIMEOUT;
        URI url = null;
        Map<String, String> headers = new LinkedHashMap<>();
        List<String> command = null;
        Path pins = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                command = List.of(Arrays.copyOfRange(args, i + 1, args.length));
                break;
            }
            if (!List.of("-o", "--output", "--format", "--timeout", "--url", "--header", "--pins").contains(arg)) {
                throw new IllegalArgumentException("unknown option '" + arg + "'" + (arg.startsWith("-") ? "" : "; put the server's command after --"));
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(arg + " needs a value");
            }
            String value = args[++i];
            switch (arg) {
                case "--format":
                    if (!value.equals("json") && !value.equals("yaml")) {
                        throw new IllegalArgumentException("--format is json or yaml, not '" + value + "'");
                    }
                    format = value.equals("json") ? PolicyParser.Format.JSON : PolicyParser.Format.YAML;
                    break;
                case "--timeout":
                    timeout = Durations.parse(value);
                    if (timeout == null) {
                        throw new IllegalArgumentException("--timeout takes a duration like 10s or 1m, not '" + value + "'");
                    }
                    break;
                case "--url":
                    url = url(value);
                    break;
                case "--header":
                    header(value, headers);
                    break;
                case "--pins":
                    pins = Path.of(value);
                    break;
                default:
                    output = Path.of(value);
                    break;
            }
        }
        if ((url == null) == (command == null || command.isEmpty())) {
            throw new IllegalArgumentException(url == null ? "name the server: -- COMMAND ARGS... (stdio) or --url URL (streamable HTTP)"
                    : "give either --url or a command after --, not both");
        }
        if (!headers.isEmpty() && url == null) {
            throw new IllegalArgumentException("--header applies to --url only");
        }
        if (format == null) {
            format = output != null && PolicyParser.formatOf(output.toString()) == PolicyParser.Format.YAML
                    ? PolicyParser.Format.YAML : PolicyParser.Format.JSON;
        }
        return new Options(output, format, timeout, url, headers, command, pins);
    }

    private static URI url(String value) {
        URI url;
        try {
            url = URI.create(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--url is not a URL: " + value);
        }
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException("--url takes an http:// or https:// URL of a streamable-HTTP MCP endpoint, not '" + value + "'");
        }
        return url;
    }

    private static void header(String value, Map<String, String> headers) {
        int colon = value.indexOf(':');
        String name = colon > 0 ? value.substring(0, colon).trim() : "";
        if (name.isEmpty() || !name.chars().allMatch(c -> c > 0x20 && c < 0x7f && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0)) {
            throw new IllegalArgumentException("--header takes \"Name: value\", not '" + value + "'");
        }
        if (HttpChannel.reservedHeaders().contains(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("--header cannot set " + name + ": scan sets it itself");
        }
        headers.put(name, value.substring(colon + 1).trim());
    }

    private static String word(ToolRisk risk) {
        return risk.name().toLowerCase(Locale.ROOT);
    }

    /** Text from the server, safe to print on one terminal line. */
    private static String oneLine(String text) {
        StringBuilder shown = new StringBuilder();
        dev.mcppolicy.text.DisplayText.appendQuoted(text, '\u0000', 256, shown);
        return shown.toString();
    }
}
