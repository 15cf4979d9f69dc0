package dev.mcppolicy.demo.peers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.demo.ForkedProcess;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code @modelcontextprotocol/server-everything} (a TypeScript server this project did not write) over
 * stdio, called by a Java SDK 2.1.0 client ({@link EverythingClient}) running in its own JVM under the
 * real agent with a client-side policy. The server's command is wrapped in a tap that appends every
 * line the client sends to a file, so the test can tell what reached the server.
 */
class ServerEverythingIT {
    private static final String SERVER_NAME = "mcp-servers/everything";
    /** The JSON Pointer of the policy's section for that server ({@code /} escaped as {@code ~1}). */
    private static final String SECTION = "/servers/mcp-servers~1everything";
    private static final String POLICY = """
            {
              "version": "1",
              "default": "allow",
              "servers": {
                "mcp-servers/everything": {
                  "default": "deny",
                  "tools": {
                    "echo": {},
                    "get-sum": {
                      "require": [ { "path": "a", "op": "lte", "value": 100 }, { "path": "b", "op": "lte", "value": 100 } ],
                      "reason": "get-sum takes numbers up to 100"
                    },
                    "get-env": { "action": "deny", "reason": "the server's environment may hold secrets" }
                  }
                }
              }
            }
            """;

    private static OneShot run;
    private static Map<String, String> steps;
    private static List<Map<String, Object>> sentToServer;

    /** One client JVM makes every call; the tests read what it printed, logged and sent. */
    @BeforeAll
    static void runTheClientOnce() throws Exception {
        Path server = Peers.path("MCP_SERVER_EVERYTHING");
        Path work = Peers.workDir("server-everything");
        Path policy = work.resolve("client-policy.json");
        Files.writeString(policy, POLICY, StandardCharsets.UTF_8);
        Path tap = work.resolve("sent-to-server.jsonl");
        Files.deleteIfExists(tap);

        List<String> command = new ArrayList<>(List.of(javaBin(), Peers.javaagent(policy),
                "-cp", testClasses() + java.io.File.pathSeparator + ForkedProcess.DEMO_JAR.toAbsolutePath(),
                EverythingClient.class.getName()));
        // exec, so that stopping the server's process stops node itself (research/peers.md, tap.sh)
        command.addAll(List.of("/bin/bash", "-c", "exec \"$@\" < <(tee -a \"$0\")", tap.toString(),
                "node", server.toString(), "stdio"));
        // get-env must not run, but should it, it would print no more than this.
        Map<String, String> environment = new HashMap<>();
        for (String name : List.of("PATH", "HOME", "LANG")) {
            if (System.getenv(name) != null) {
                environment.put(name, System.getenv(name));
            }
        }
        run = OneShot.run(command, work, environment, work, "java-client", Duration.ofSeconds(120));
        assertThat(run.exitCode()).as(run::describe).isZero();

        steps = new LinkedHashMap<>();
        for (String line : run.stdout().lines().toList()) {
            String[] parts = line.split(" ", 2);
            String[] step = parts[0].equals("result") || parts[0].equals("error") ? parts[1].split(" ", 2) : null;
            steps.put(step != null ? step[0] : parts[0], step != null ? parts[0] + " " + step[1] : parts[1]);
        }
        sentToServer = new ArrayList<>();
        for (String line : Files.readAllLines(tap, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                sentToServer.add(json(line));
            }
        }
    }

    @Test
    void theClientReallyTalkedToServerEverything() {
        assertThat(steps.get("server")).as(run::describe).isEqualTo(SERVER_NAME);
        assertThat(sentToServer).extracting(message -> message.get("method")).contains("initialize", "tools/list");
    }

    @Test
    void theClientsToolListOnlyShowsWhatThePolicyLets() {
        // server-everything offers 13 tools to this client; its policy section denies all but two by default.
        assertThat(steps.get("tools").split(",")).as(run::describe).containsExactlyInAnyOrder("echo", "get-sum");
    }

    @Test
    void theEnvToolIsRefusedClientSideAndNeverReachesTheServer() throws IOException {
        Map<String, Object> result = result("get-env");

        assertThat(result.get("isError")).isEqualTo(true);
        assertThat(text(result)).isEqualTo("Policy denied tool 'get-env': the server's environment may hold secrets"
                + " [rule " + SECTION + "/tools/get-env]");
        assertThat(toolCallsSent()).extracting(call -> call.get("name")).doesNotContain("get-env");
        assertThat(clientLog()).anyMatch(decision("DENY", "get-env", SECTION + "/tools/get-env").asPredicate());
    }

    @Test
    void echoIsAllowedAndAnsweredByTheServer() throws IOException {
        Map<String, Object> result = result("echo");

        assertThat(result.get("isError")).isNotEqualTo(true);
        assertThat(text(result)).isEqualTo("Echo: hello from a Java client under the agent");
        assertThat(toolCallsSent()).extracting(call -> call.get("name")).containsOnlyOnce("echo");
        assertThat(clientLog()).anyMatch(decision("ALLOW", "echo", SECTION + "/tools/echo").asPredicate());
    }

    @Test
    void theArgumentRuleOnGetSumAllowsSmallNumbersAndRefusesLargeOnes() throws IOException {
        Map<String, Object> small = result("get-sum-small");
        Map<String, Object> large = result("get-sum-large");

        assertThat(small.get("isError")).isNotEqualTo(true);
        assertThat(text(small)).isEqualTo("The sum of 2 and 3 is 5.");
        assertThat(large.get("isError")).isEqualTo(true);
        assertThat(text(large)).isEqualTo("Policy denied tool 'get-sum': get-sum takes numbers up to 100"
                + " [rule " + SECTION + "/tools/get-sum/require/0]");
        // Only the small call went out.
        assertThat(toolCallsSent()).filteredOn(call -> "get-sum".equals(call.get("name")))
                .extracting(call -> call.get("arguments")).containsExactly(Map.of("a", 2, "b", 3));
        assertThat(clientLog()).anyMatch(decision("ALLOW", "get-sum", SECTION + "/tools/get-sum").asPredicate());
        assertThat(clientLog()).anyMatch(decision("DENY", "get-sum", SECTION + "/tools/get-sum/require/0").asPredicate());
    }

    @Test
    void theClientJvmLogsOneClientSideDecisionPerCallAndNoAgentTrouble() {
        assertThat(clientLog()).filteredOn(line -> line.contains("mcp-policy decision=")).hasSize(4)
                .allMatch(line -> line.contains(" side=client "));
        assertThat(clientLog()).anyMatch(line -> line.contains("instrumented io.modelcontextprotocol.client.McpAsyncClient"))
                .noneMatch(line -> line.contains("advice error") || line.contains("NOT instrumented"));
    }

    // ---- helpers ----

    private static Map<String, Object> result(String label) throws IOException {
        String step = steps.get(label);
        assertThat(step).as(run::describe).isNotNull().startsWith("result ");
        return json(step.substring("result ".length()));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> toolCallsSent() {
        return sentToServer.stream()
                .filter(message -> "tools/call".equals(message.get("method")))
                .map(message -> (Map<String, Object>) message.get("params"))
                .toList();
    }

    private static List<String> clientLog() {
        return run.stderr().lines().filter(line -> !line.startsWith("[server] ")).toList();
    }

    private static Pattern decision(String effect, String tool, String rule) {
        return Pattern.compile("mcp-policy decision=" + effect + " tool=" + Pattern.quote(tool) + " side=client server="
                + Pattern.quote(SERVER_NAME) + " rule=" + Pattern.quote(rule) + " .*client=everything-it ");
    }

    @SuppressWarnings("unchecked")
    private static String text(Map<String, Object> result) {
        List<Map<String, Object>> content = (List<Map<String, Object>>) result.get("content");
        assertThat(content).as("%s", result).hasSize(1);
        return (String) content.get(0).get("text");
    }

    private static Map<String, Object> json(String text) throws IOException {
        return McpJsonDefaults.getMapper().readValue(text, new TypeRef<Map<String, Object>>() {
        });
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static Path testClasses() throws URISyntaxException {
        return Path.of(EverythingClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

}
