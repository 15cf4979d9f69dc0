package dev.mcppolicy.it;

import static dev.mcppolicy.it.AbstractConcurrencyScenarios.INIT;
import static dev.mcppolicy.it.AbstractConcurrencyScenarios.INITIALIZED;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Raw JSON-RPC to a fixture server's stdin, for tests that must send without waiting or at an exact moment. */
final class StdioRpc {
    private StdioRpc() {
    }

    /** An SDK version of {@link #start} that names the SDK 2.2 modern API's server ({@code fixture.ModernServer}). */
    static final String MODERN = McpPair.MODERN_SDK + "-modern";

    /** What an SDK version of {@link #start} starts with to name the Quarkus fixture app on that quarkus-mcp-server version. */
    static final String QUARKUS = "quarkus-";

    /** The Quarkus fixture app with a stdio transport. */
    static final String QUARKUS_STDIO = QUARKUS + "1.10.1";

    /**
     * A stdio fixture server under the agent, with extra JVM options (the agent's test hooks) first; {@link #MODERN}
     * starts the modern API's server, whose requests need {@link #forSdk} and no {@code initialize};
     * {@code quarkus-<version>} the Quarkus fixture app ({@link Fixtures#quarkusApp}); {@link McpPair#KOTLIN} the Kotlin
     * fixture server.
     */
    static ForkedJvm start(String name, String sdkVersion, Path dir, List<String> jvmOptions, String agentOptions) throws Exception {
        List<String> args = new ArrayList<>(jvmOptions);
        args.add(Fixtures.javaagent(agentOptions));
        if (McpPair.KOTLIN.equals(sdkVersion)) {
            return ForkedJvm.start(name, dir, args, Fixtures.kotlinClassPath(), "fixture.kotlin.KotlinServerKt", List.of("stdio"));
        }
        if (sdkVersion.startsWith(QUARKUS)) {
            List<String> command = new ArrayList<>(List.of(ForkedJvm.javaExecutable()));
            command.addAll(args);
            command.addAll(List.of("-jar", Fixtures.quarkusApp(sdkVersion.substring(QUARKUS.length())).toString()));
            return ForkedJvm.startProcess(name, dir, command);
        }
        boolean modern = MODERN.equals(sdkVersion);
        return ForkedJvm.start(name, dir, args, Fixtures.classPath(modern ? McpPair.MODERN_SDK : sdkVersion),
                modern ? "fixture.ModernServer" : "fixture.FixtureServer", List.of("stdio"));
    }

    /** {@link #initialize}, which the modern API's protocol (2026-07-28) has none of. */
    static void initialize(ForkedJvm server, String sdkVersion) throws Exception {
        if (!MODERN.equals(sdkVersion)) {
            initialize(server);
        }
    }

    /**
     * {@code request} as a client of {@code sdkVersion}'s server sends it: for {@link #MODERN}, with the {@code _meta}
     * every request of protocol 2026-07-28 carries (its version, the client's capabilities and info).
     */
    static String forSdk(String sdkVersion, String request) throws java.io.IOException {
        if (!MODERN.equals(sdkVersion)) {
            return request;
        }
        com.fasterxml.jackson.databind.node.ObjectNode parsed = (com.fasterxml.jackson.databind.node.ObjectNode) CallMix.JSON.readTree(request);
        com.fasterxml.jackson.databind.node.ObjectNode meta = ((com.fasterxml.jackson.databind.node.ObjectNode) parsed.get("params")).putObject("_meta");
        meta.put("io.modelcontextprotocol/protocolVersion", CallMix.MODERN_PROTOCOL);
        meta.putObject("io.modelcontextprotocol/clientCapabilities");
        meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "raw-client").put("version", "1.0");
        return parsed.toString();
    }

    static void initialize(ForkedJvm server) throws Exception {
        server.send(INIT.formatted("2024-11-05"));
        server.awaitStdout(0, line -> line.contains("\"id\":\"init\""));
        server.send(INITIALIZED);
    }

    static String call(String id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    static String list(String id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"tools/list\",\"params\":{}}";
    }

    /** The answer to request {@code id}. */
    static JsonNode answer(ForkedJvm server, String id) throws Exception {
        return CallMix.JSON.readTree(server.awaitStdout(0, line -> line.contains("\"id\":\"" + id + "\"")));
    }

    /** Sends {@code tools/call} and returns its first text content. */
    static String callText(ForkedJvm server, String id, String tool, String arguments) throws Exception {
        server.send(call(id, tool, arguments));
        return text(answer(server, id));
    }

    static String text(JsonNode answer) {
        return answer.path("result").path("content").path(0).path("text").asText();
    }

    /** The tool names of a {@code tools/list} answer. */
    static List<String> tools(JsonNode answer) {
        List<String> tools = new ArrayList<>();
        answer.path("result").path("tools").forEach(tool -> tools.add(tool.path("name").asText()));
        return tools;
    }
}
