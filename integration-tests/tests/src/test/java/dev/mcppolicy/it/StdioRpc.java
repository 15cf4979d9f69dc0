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

    /** A stdio fixture server under the agent, with extra JVM options (the agent's test hooks) first. */
    static ForkedJvm start(String name, String sdkVersion, Path dir, List<String> jvmOptions, String agentOptions) throws Exception {
        List<String> args = new ArrayList<>(jvmOptions);
        args.add(Fixtures.javaagent(agentOptions));
        return ForkedJvm.start(name, dir, args, Fixtures.classPath(sdkVersion), "fixture.FixtureServer", List.of("stdio"));
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
