package dev.mcppolicy.demo.peers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.demo.ForkedProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code @modelcontextprotocol/inspector-cli}, a client this project did not write, against the sandbox
 * server running under the real agent with the shipped {@code mcp-policy.json}, over stdio (the
 * inspector starts the server JVM itself, once per invocation) and over streamable HTTP (one server JVM,
 * many inspector invocations, all identifying as {@code clientInfo.name = inspector-cli}).
 */
class InspectorCliIT {
    private static final Pattern LISTENING = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+/mcp)");
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration INVOCATION = Duration.ofSeconds(90);
    /** What an agent may see of the sandbox server's eight tools under the shipped policy. */
    private static final List<String> VISIBLE_TOOLS = List.of("read_file", "run_command", "sandbox_exec_background",
            "sandbox_exec_kill", "sandbox_exec_status", "write_file");
    private static final String RUN_COMMAND_REASON = "run_command is limited to read-only commands (ls, cat, echo, pwd,"
            + " wc, head, tail) without chaining, pipes, substitution or redirection";
    private static final int RUN_COMMAND_PER_MINUTE = 10;

    private static Path inspector;
    private static Path inspectorCwd;
    private static Path work;
    private static Path policy;
    private static Path stderrTo;
    private static ForkedProcess httpServer;
    private static String httpUrl;
    private static int invocations;

    @BeforeAll
    static void setUp() throws Exception {
        inspector = Peers.path("MCP_INSPECTOR_CLI");
        inspectorCwd = Peers.path("MCP_INSPECTOR_CWD");
        work = Peers.workDir("inspector-cli");
        policy = Path.of(System.getProperty("demo.policy", "mcp-policy.json")).toAbsolutePath();
        // The inspector discards a stdio server's stderr; this keeps it, for the decision lines.
        stderrTo = work.resolve("stderr-to.sh");
        Files.writeString(stderrTo, "log=$1; shift\nexec \"$@\" 2>>\"$log\"\n", StandardCharsets.UTF_8);
        httpServer = startHttpServer();
        httpUrl = httpServer.awaitStderr(LISTENING, STARTUP);
    }

    @AfterAll
    static void tearDown() {
        if (httpServer != null) {
            httpServer.close();
        }
    }

    // ---- stdio: each invocation starts `java -javaagent:... -jar demo-app.jar` itself ----

    @Test
    void stdioToolsListOmitsTheHiddenAndTheDeniedTools() throws Exception {
        Stdio call = stdio("--method", "tools/list");

        assertThat(toolNames(call.result())).containsExactlyInAnyOrderElementsOf(VISIBLE_TOOLS)
                .doesNotContain("sandbox_exec_list", "delete_file");
    }

    @Test
    void stdioAllowedRunCommandReturnsTheToolsOutput() throws Exception {
        Stdio call = stdio("--method", "tools/call", "--tool-name", "run_command", "--tool-arg", "command=ls -a");

        Map<String, Object> result = call.result();
        assertThat(result.get("isError")).isEqualTo(false);
        assertThat(structured(result)).containsEntry("command", "ls -a").containsEntry("exitCode", 0);
        assertThat(((String) structured(result).get("stdout")).lines()).contains(".", "..");
        assertThat(call.serverLog()).anyMatch(decision("ALLOW", "run_command", "/tools/run_command").asPredicate());
    }

    @Test
    void stdioRmRfIsDeniedByArgumentWithThePolicyMessage() throws Exception {
        Stdio call = stdio("--method", "tools/call", "--tool-name", "run_command", "--tool-arg", "command=rm -rf ./notes.txt");

        assertDenied(call.result(), "Policy denied tool 'run_command': " + RUN_COMMAND_REASON
                + " [rule /tools/run_command/require/0]");
        assertThat(call.serverLog()).anyMatch(decision("DENY", "run_command", "/tools/run_command/require/0").asPredicate());
        assertThat(call.serverLog()).noneMatch(line -> line.contains("tool run_command ->"));
    }

    @Test
    void stdioDeleteFileIsDeniedByRuleWithThePolicyMessage() throws Exception {
        Stdio call = stdio("--method", "tools/call", "--tool-name", "delete_file", "--tool-arg", "path=notes.txt");

        assertDenied(call.result(), "Policy denied tool 'delete_file': destructive tools are disabled in this sandbox"
                + " [rule /tools/delete_*]");
        assertThat(call.serverLog()).anyMatch(decision("DENY", "delete_file", "/tools/delete_*").asPredicate());
    }

    // ---- streamable HTTP: one server JVM under the agent ----

    @Test
    void httpToolsListOmitsTheHiddenAndTheDeniedTools() throws Exception {
        Map<String, Object> list = inspect(httpUrl, "--method", "tools/list").result();

        assertThat(toolNames(list)).containsExactlyInAnyOrderElementsOf(VISIBLE_TOOLS)
                .doesNotContain("sandbox_exec_list", "delete_file");
    }

    @Test
    void httpAllowedRunCommandReturnsTheToolsOutput() throws Exception {
        Map<String, Object> result = inspect(httpUrl, "--method", "tools/call", "--tool-name", "run_command",
                "--tool-arg", "command=ls -a").result();

        assertThat(result.get("isError")).isEqualTo(false);
        assertThat(structured(result)).containsEntry("command", "ls -a").containsEntry("exitCode", 0);
        assertThat(((String) structured(result).get("stdout")).lines()).contains(".", "..");
        httpServer.awaitStderr(decision("ALLOW", "run_command", "/tools/run_command"), STARTUP);
    }

    @Test
    void httpDeniedCallsReturnIsErrorWithThePolicyMessage() throws Exception {
        Map<String, Object> rmRf = inspect(httpUrl, "--method", "tools/call", "--tool-name", "run_command",
                "--tool-arg", "command=rm -rf ./notes.txt").result();
        Map<String, Object> chained = inspect(httpUrl, "--method", "tools/call", "--tool-name", "run_command",
                "--tool-arg", "command=cat notes.txt && rm -rf ./notes.txt").result();
        Map<String, Object> delete = inspect(httpUrl, "--method", "tools/call", "--tool-name", "delete_file",
                "--tool-arg", "path=notes.txt").result();

        assertDenied(rmRf, "Policy denied tool 'run_command': " + RUN_COMMAND_REASON
                + " [rule /tools/run_command/require/0]");
        assertDenied(chained, "Policy denied tool 'run_command': " + RUN_COMMAND_REASON
                + " [rule /tools/run_command/deny_if/0]");
        assertDenied(delete, "Policy denied tool 'delete_file': destructive tools are disabled in this sandbox"
                + " [rule /tools/delete_*]");
        httpServer.awaitStderr(decision("DENY", "run_command", "/tools/run_command/require/0"), STARTUP);
        httpServer.awaitStderr(decision("DENY", "run_command", "/tools/run_command/deny_if/0"), STARTUP);
        httpServer.awaitStderr(decision("DENY", "delete_file", "/tools/delete_*"), STARTUP);
    }

    @Test
    void httpHiddenToolAnswersLikeAnUnknownTool() throws Exception {
        OneShot hidden = inspect(httpUrl, "--method", "tools/call", "--tool-name", "sandbox_exec_list");

        // The JSON-RPC error the SDK 2.1.0 server itself sends for a tool it does not have
        // (research/peers.md section 6), not a policy message: nothing tells the caller the tool exists.
        assertThat(hidden.exitCode()).as(hidden::describe).isEqualTo(1);
        assertThat(hidden.stdout()).as(hidden::describe).isEmpty();
        assertThat(hidden.stderr().strip()).as(hidden::describe)
                .isEqualTo("Failed to call tool sandbox_exec_list: MCP error -32602: Unknown tool: invalid_tool_name");
        httpServer.awaitStderr(decision("DENY", "sandbox_exec_list", "(hidden)"), STARTUP);
    }

    @Test
    void httpBurstIsRefusedAfterItsTenCallsAMinuteWithRetryAfter() throws Exception {
        // A server of its own, so that no other test's call counts against the burst.
        try (ForkedProcess server = startHttpServer()) {
            String url = server.awaitStderr(LISTENING, STARTUP);
            int calls = RUN_COMMAND_PER_MINUTE + 2;
            List<Map<String, Object>> results = new ArrayList<>();
            for (int i = 1; i <= calls; i++) {
                results.add(inspect(url, "--method", "tools/call", "--tool-name", "run_command",
                        "--tool-arg", "command=echo burst " + i).result());
            }

            for (int i = 0; i < RUN_COMMAND_PER_MINUTE; i++) {
                Map<String, Object> result = results.get(i);
                assertThat(result.get("isError")).as("call %d: %s", i + 1, result).isEqualTo(false);
                assertThat(structured(result)).containsEntry("stdout", "burst " + (i + 1) + "\n");
            }
            Pattern refused = Pattern.compile("Policy denied tool 'run_command': rate limit exceeded: counter 'run_command'"
                    + " allows 10 per 1m, scope client; retry after (\\d+)s \\[rule /tools/run_command/limits/0\\]");
            for (int i = RUN_COMMAND_PER_MINUTE; i < calls; i++) {
                Map<String, Object> result = results.get(i);
                assertThat(result.get("isError")).as("call %d: %s", i + 1, result).isEqualTo(true);
                Matcher matcher = refused.matcher(text(result));
                assertThat(matcher.matches()).as("call %d: %s", i + 1, text(result)).isTrue();
                // the oldest of the ten leaves the one-minute window within the minute
                assertThat(Integer.parseInt(matcher.group(1))).isBetween(1, 60);
            }
            Pattern anyDecision = Pattern.compile("mcp-policy decision=\\w+ tool=run_command ");
            List<String> decisions = server.awaitStderrLines(anyDecision, calls, STARTUP);
            assertThat(decisions).hasSize(calls);
            assertThat(decisions.subList(0, RUN_COMMAND_PER_MINUTE))
                    .allMatch(decision("ALLOW", "run_command", "/tools/run_command").asPredicate());
            assertThat(decisions.subList(RUN_COMMAND_PER_MINUTE, calls))
                    .allMatch(Pattern.compile("decision=DENY tool=run_command side=server rule=/tools/run_command/limits/0"
                            + " reason=\"rate limit exceeded[^\"]*\" retry_after=\\d+ .*client=inspector-cli").asPredicate());
        }
    }

    // ---- helpers ----

    private static ForkedProcess startHttpServer() throws IOException {
        return ForkedProcess.java(Peers.javaagent(policy), "-jar", ForkedProcess.DEMO_JAR.toString(), "--http", "0");
    }

    /** One inspector invocation against a stdio server it starts, with the server's stderr kept. */
    private record Stdio(OneShot call, List<String> serverLog) {
        Map<String, Object> result() throws IOException {
            return call.result();
        }
    }

    private static Stdio stdio(String... inspectorOptions) throws Exception {
        Path serverLog = work.resolve("stdio-server-" + (invocations + 1) + ".err");
        Files.deleteIfExists(serverLog);
        List<String> target = new ArrayList<>(List.of("/bin/sh", stderrTo.toString(), serverLog.toString(),
                javaBin(), Peers.javaagent(policy), "-jar", ForkedProcess.DEMO_JAR.toAbsolutePath().toString()));
        target.addAll(List.of(inspectorOptions));
        OneShot call = inspect(target.toArray(String[]::new));
        return new Stdio(call, Files.readAllLines(serverLog, StandardCharsets.UTF_8));
    }

    /** {@code node inspector-cli TARGET... OPTIONS...}, from the directory its version lookup needs. */
    private static OneShot inspect(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", inspector.toString()));
        command.addAll(List.of(args));
        return OneShot.run(command, inspectorCwd, work, "inspector-" + ++invocations, INVOCATION);
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static Pattern decision(String effect, String tool, String rule) {
        return Pattern.compile("mcp-policy decision=" + effect + " tool=" + Pattern.quote(tool) + " side=server rule="
                + Pattern.quote(rule) + " .*client=inspector-cli ");
    }

    private static void assertDenied(Map<String, Object> result, String message) {
        assertThat(result.get("isError")).as("%s", result).isEqualTo(true);
        assertThat(text(result)).isEqualTo(message);
    }

    @SuppressWarnings("unchecked")
    private static String text(Map<String, Object> result) {
        List<Map<String, Object>> content = (List<Map<String, Object>>) result.get("content");
        assertThat(content).as("%s", result).hasSize(1);
        assertThat(content.get(0)).containsEntry("type", "text");
        return (String) content.get(0).get("text");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(Map<String, Object> result) {
        assertThat(result.get("structuredContent")).as("%s", result).isInstanceOf(Map.class);
        return (Map<String, Object>) result.get("structuredContent");
    }

    @SuppressWarnings("unchecked")
    private static List<String> toolNames(Map<String, Object> list) {
        return ((List<Map<String, Object>>) list.get("tools")).stream().map(tool -> (String) tool.get("name")).toList();
    }

}
