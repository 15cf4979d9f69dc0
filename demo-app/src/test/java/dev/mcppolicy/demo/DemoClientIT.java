package dev.mcppolicy.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.demo.peers.Peers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scripted client plays its whole session against the server, from the jar, as run-demo.sh runs
 * it. Without the policy agent every call reaches the tools, so every step shows the tool's own answer;
 * under the agent with its admin endpoint on (as run-demo.sh starts it) the client approves one held
 * background task and denies the other through the admin API.
 */
class DemoClientIT {
    private static final Duration SESSION_TIMEOUT = Duration.ofMinutes(3);

    @TempDir
    Path work;

    @Test
    void playsTheWholeSessionOverStdio() throws Exception {
        Path serverLog = work.resolve("server.log");
        String jar = ForkedProcess.DEMO_JAR.toString();

        try (ForkedProcess client = ForkedProcess.java("-cp", jar, DemoClient.class.getName(),
                "--server-log", serverLog.toString(), "--", ForkedProcess.java(), "-jar", jar)) {
            assertThat(client.awaitExit(SESSION_TIMEOUT)).as(client.stdout()).isZero();

            assertSessionRanUnguarded(client.stdout());
        }
        assertThat(Files.readString(serverLog)).contains("serving 8 tools over stdio", "tool run_command -> ok");
    }

    @Test
    void playsTheWholeSessionOverHttp() throws Exception {
        String jar = ForkedProcess.DEMO_JAR.toString();
        try (ForkedProcess server = ForkedProcess.java("-jar", jar, "--http", "0")) {
            String port = server.awaitStderr(Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/mcp"),
                    Duration.ofSeconds(60));

            try (ForkedProcess client = ForkedProcess.java("-cp", jar, DemoClient.class.getName(),
                    "--url", "http://127.0.0.1:" + port + "/mcp")) {
                assertThat(client.awaitExit(SESSION_TIMEOUT)).as(client.stdout()).isZero();

                assertSessionRanUnguarded(client.stdout());
            }
        }
    }

    @Test
    void underTheAgentApprovesOneHeldBackgroundTaskAndDeniesTheOther() throws Exception {
        Path serverLog = work.resolve("server.log");
        String jar = ForkedProcess.DEMO_JAR.toString();
        String agent = Peers.javaagent(Path.of(System.getProperty("demo.policy", "mcp-policy.json"))) + ",admin=127.0.0.1:0";

        try (ForkedProcess client = ForkedProcess.java("-cp", jar, DemoClient.class.getName(), "--server-log", serverLog.toString(),
                "--", ForkedProcess.java(), "-Duser.home=" + work, agent, "-jar", jar)) {
            assertThat(client.awaitExit(SESSION_TIMEOUT)).as(client.stdout()).isZero();

            assertThat(client.stdout()).contains(
                    "demo-operator approves it: POST /api/approvals/",
                    "ok: execId=\"exec-1\" status=\"running\"",
                    "status=\"killed\"",
                    "demo-operator denies it: POST /api/approvals/",
                    "isError: Policy denied tool 'sandbox_exec_background': approval denied by demo-operator: no long sleeps during"
                            + " the demo [rule /tools/sandbox_exec_background]",
                    "Session done: 30 tool calls: 19 returned a result, 10 returned isError, 1 got a JSON-RPC error, 0 failed.");
        }
        String log = Files.readString(serverLog);
        assertThat(log.lines().filter(line -> line.contains("decision=HOLD tool=sandbox_exec_background"))).hasSize(2);
        assertThat(log).contains("approval=approved approver=demo-operator", "approval=denied approver=demo-operator")
                .doesNotContain("advice error");
    }

    private static void assertSessionRanUnguarded(String transcript) {
        assertThat(transcript).contains(
                "Connected to sandbox-server 0.1.0",
                "8 tools: delete_file, read_file, run_command, sandbox_exec_background, sandbox_exec_kill, "
                        + "sandbox_exec_list, sandbox_exec_status, write_file",
                "| hello from the agent",
                "12 of 12 burst calls returned a result",
                "(the policy hides it; in tools/list above: yes)",
                "| step 1: started",
                "| step 2: working",
                "status=\"killed\"",
                "> sandbox_exec_background {\"command\":\"sleep 300\",\"timeoutSeconds\":300}",
                "Session done: 30 tool calls: 29 returned a result, 1 returned isError, 0 got a JSON-RPC error, "
                        + "0 failed.");
        assertThat(transcript).as("nobody to ask without the agent").doesNotContain("held for approval");
    }
}
