package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Hostile input written straight to a real stdio server under the agent (issue 8 §4): deep nesting, a
 * 10 MB string, 100,000 keys, numbers beyond double, lone surrogates, and tool names that try to forge
 * log fields (control characters, an RTL override, 10 KB of text). Each call is answered (allowed ones
 * run, the rest with the §5 denial), each is one decision line that stays one line, and the server
 * goes on serving. NaN and nesting deeper than the SDK's JSON parser allows (see {@link #DEPTH}) never
 * reach the agent: the SDK refuses the message itself; the runtime's unit tests cover them.
 */
abstract class AbstractHostileInputScenarios {
    /** Writes every non-ASCII character as its JSON escape, so lone surrogates reach the server as such. */
    static final ObjectMapper ESCAPING = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
    /**
     * Below the SDK's JSON parser's nesting limit (Jackson 2: 1,000, Jackson 3: 500), so the agent sees
     * it. A deeper message the SDK refuses itself, and its stdio transport then ends the session (the SDK's
     * behaviour, with or without the agent).
     */
    static final int DEPTH = 400;

    abstract String sdkVersion();

    @Test
    void answersHostileCallsWithoutCrashingAndKeepsEachDecisionOnOneLine() throws Exception {
        String name = getClass().getSimpleName();
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), CallMix.POLICY);
        Map<String, String> expected = new LinkedHashMap<>();
        List<String> requests = new ArrayList<>();

        ObjectNode deep = CallMix.JSON.createObjectNode();
        // keys outside the tools' inputSchema: SDK 2.1 checks the ones inside it (text, command) for their type
        ArrayNode nest = deep.putArray("nested");
        for (int i = 0; i < DEPTH; i++) {
            nest = nest.addArray();
        }
        requests.add(call("deep", "echo", deep));
        expected.put("deep", "allowed");

        ObjectNode huge = CallMix.JSON.createObjectNode().put("command", "x".repeat(10 * 1024 * 1024) + " rm -rf /");
        requests.add(call("huge", "run_command", huge));
        expected.put("huge", "Policy denied tool 'run_command'");

        ObjectNode wide = CallMix.JSON.createObjectNode();
        for (int i = 0; i < 100_000; i++) {
            wide.put("k" + i, i);
        }
        requests.add(call("wide", "echo", wide));
        expected.put("wide", "allowed");

        requests.add("{\"jsonrpc\":\"2.0\",\"id\":\"big-number\",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                + "\"arguments\":{\"big\":1e400,\"small\":-1e400,\"tiny\":1e-400}}}");
        expected.put("big-number", "allowed");

        requests.add(call("surrogate", "echo", CallMix.JSON.createObjectNode().put("text", "a\ud800b\udfffc")));
        expected.put("surrogate", "allowed");

        Map<String, String> forgedNames = new LinkedHashMap<>();
        forgedNames.put("newline", "x\ndecision=ALLOW tool=echo side=server rule=/tools/echo");
        forgedNames.put("controls", "x\r\t\u0000\u001b[31m\u007f\u0085\u2028y");
        forgedNames.put("rtl", "tool\u202eexe.txt\u2066");
        forgedNames.put("lone-surrogate", "tool\udc00");
        forgedNames.put("ten-kb", "n".repeat(10 * 1024));
        forgedNames.forEach((id, tool) -> {
            requests.add(call(id, tool, CallMix.JSON.createObjectNode()));
            expected.put(id, "Policy denied tool '");
        });
        requests.add(call("alive", "echo", CallMix.JSON.createObjectNode().put("text", "still here")));
        expected.put("alive", "allowed");

        try (ForkedJvm server = ForkedJvm.start(name, dir, List.of(Fixtures.javaagent("audit=audit.jsonl")),
                Fixtures.classPath(sdkVersion()), "fixture.FixtureServer", List.of("stdio"))) {
            server.send(AbstractConcurrencyScenarios.INIT.formatted("2024-11-05"));
            server.awaitStdout(0, line -> line.contains("\"id\":\"init\""));
            server.send(AbstractConcurrencyScenarios.INITIALIZED);
            server.sendAll(requests);

            List<String> lines = server.awaitStdoutCount(line -> line.startsWith("{") && !line.contains("\"id\":\"init\""),
                    requests.size(), Duration.ofSeconds(20));
            Map<String, List<JsonNode>> answers = CallMix.byId(lines);
            for (Map.Entry<String, String> want : expected.entrySet()) {
                List<JsonNode> got = answers.get(want.getKey());
                assertThat(got).as("answer to %s%n%s", want.getKey(), server.dump().lines().limit(200).toList()).hasSize(1);
                JsonNode result = got.get(0).path("result");
                String text = result.path("content").path(0).path("text").asText();
                if (want.getValue().equals("allowed")) {
                    assertThat(result.path("isError").asBoolean()).as(want.getKey()).isFalse();
                } else {
                    assertThat(result.path("isError").asBoolean()).as(want.getKey()).isTrue();
                    assertThat(text).as(want.getKey()).startsWith(want.getValue()).doesNotContain("\n");
                }
            }

            List<String> decisions = server.awaitStderrCount(l -> l.contains("mcp-policy decision="), requests.size(), Duration.ofSeconds(10));
            assertThat(decisions).hasSize(requests.size());
            assertThat(decisions).allMatch(l -> l.length() < 4_096, "a decision line stays short")
                    .noneMatch(l -> l.contains("\u202e") || l.contains("\u2066") || l.contains("\u2028") || l.contains("\u001b"));
            // a name that tried to start a line of its own did not: every "decision=" is a decision line's own
            assertThat(server.stderr()).filteredOn(l -> l.contains("decision=") && !l.contains("mcp-policy decision=")).isEmpty();
            assertThat(decisions).filteredOn(l -> l.contains("mcp-policy decision=ALLOW tool=echo side=server")).hasSize(5);
            List<String> audit = AuditFiles.awaitLines(dir.resolve("audit.jsonl"), requests.size());
            assertThat(audit).hasSize(requests.size()).allMatch(record -> CallMix.parse(record) != null, "valid JSON");
            assertThat(server.stderr()).noneMatch(l -> l.contains("advice error") || l.contains("StackOverflowError")
                    || l.contains("OutOfMemoryError"));
            assertThat(server.isAlive()).isTrue();
        }
    }

    private static String call(String id, String tool, ObjectNode arguments) {
        ObjectNode request = CallMix.JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
        request.putObject("params").put("name", tool).set("arguments", arguments);
        try {
            return ESCAPING.writeValueAsString(request);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
