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
    /** The planted secrets of the session's .env, as DemoSession builds them. */
    private static final String AWS_KEY = "AKIA" + "IOSFODNN7EXAMPLE";
    private static final String DB_PASSWORD = "hunter2" + "-s3cret";
    private static final String READS = "And 3 resource reads: 2 returned contents, 1 got a JSON-RPC error, 0 failed.";

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
        assertThat(Files.readString(serverLog)).contains("serving 8 tools over stdio", "tool run_command -> ok",
                "resource file:///sandbox/.env -> ok");
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
                    "6 of 12 burst calls returned a result",
                    "Session done: 33 tool calls: 21 returned a result, 11 returned isError, 1 got a JSON-RPC error, 0 failed.",
                    READS);
            assertSecretsRedactedAndTraversalDenied(client.stdout());
        }
        String log = Files.readString(serverLog);
        assertThat(log.lines().filter(line -> line.contains("decision=HOLD tool=sandbox_exec_background"))).hasSize(2);
        assertThat(log).contains("approval=approved approver=demo-operator", "approval=denied approver=demo-operator")
                .doesNotContain("advice error");
        assertThat(log.lines().filter(line -> line.contains("decision=ALLOW tool=read_file")
                && line.contains(" redacted=aws-access-token:2,basic-auth-url:2 "))).hasSize(1);
        assertThat(log.lines().filter(line -> line.contains("decision=ALLOW tool=run_command")
                && line.contains(" redacted=aws-access-token:2,basic-auth-url:2 "))).hasSize(1);
        assertThat(log).contains(
                "decision=ALLOW kind=resource uri=file:///sandbox/notes.txt side=server rule=/resources/file:~1~1~1sandbox~1* session=",
                "decision=ALLOW kind=resource uri=file:///sandbox/.env side=server rule=/resources/file:~1~1~1sandbox~1*"
                        + " redacted=aws-access-token:1,basic-auth-url:1 ",
                "decision=DENY kind=resource uri=file:///sandbox/%2e%2e/etc/passwd side=server rule=(default)"
                        + " reason=\"no policy rule allows this resource (resource_default: deny)\"")
                .doesNotContain(AWS_KEY, DB_PASSWORD)
                .doesNotContain("resource file:///sandbox/%2e%2e/etc/passwd ->");
    }

    /** Under the agent: the caller never sees the planted secrets, and the traversal gets the policy's error. */
    private static void assertSecretsRedactedAndTraversalDenied(String transcript) {
        assertThat(transcript).doesNotContain(AWS_KEY, DB_PASSWORD);
        assertThat(transcript.lines().filter(line -> line.equals("      | AWS_ACCESS_KEY_ID=[REDACTED:aws-access-token]")))
                .as("read_file, cat and the resource read").hasSize(3);
        assertThat(transcript.lines().filter(line -> line.equals(
                "      | DATABASE_URL=postgres://app:[REDACTED:basic-auth-url]@db.internal:5432/app"))).hasSize(3);
        assertThat(transcript).contains(
                "resources/list: 2 resources: file:///sandbox/.env, file:///sandbox/notes.txt",
                "resources/templates/list: 1 template: file:///sandbox/{path}",
                "    > resources/read file:///sandbox/%2e%2e/etc/passwd\n"
                        + "      JSON-RPC error -32602: Policy denied resource 'file:///sandbox/%2e%2e/etc/passwd': no policy rule"
                        + " allows this resource (resource_default: deny) [rule (default)]");
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
                "Session done: 33 tool calls: 32 returned a result, 1 returned isError, 0 got a JSON-RPC error, "
                        + "0 failed.",
                READS,
                // Without the agent the secrets come back as they are, and the SDK finds no resource for the traversal.
                "      | AWS_ACCESS_KEY_ID=" + AWS_KEY,
                "resources/list: 2 resources: file:///sandbox/.env, file:///sandbox/notes.txt",
                "    > resources/read file:///sandbox/%2e%2e/etc/passwd\n      JSON-RPC error -32002: ");
        assertThat(transcript).as("nobody to ask without the agent").doesNotContain("held for approval", "REDACTED");
    }
}
