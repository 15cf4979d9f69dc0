package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A held call and the TypeScript MCP SDK's client (a third-party peer, from the directory
 * {@code .ci/install-peers.sh} fills), whose request timeout is far shorter than the hold (SPEC §6, issue
 * 13, "while waiting"). The agent sends {@code notifications/progress} every {@value #PROGRESS_MS} ms here
 * (a test-only period; 10 s in the product): a client that resets its timeout on progress keeps waiting
 * through many of its timeouts and gets the tool's result once the call is approved. A client that asks for
 * no progress, or does not reset its timeout on it, times out ({@code -32001}) and cancels the request; the agent then gives the approval up,
 * logged, never runs the handler and sends no late answer, and the session goes on.
 */
class TypeScriptApprovalProgressIT {
    private static final long PROGRESS_MS = 300;
    private static final int TIMEOUT_MS = 1500;
    private static final String POLICY = """
            { "version": "1", "default": "deny",
              "tools": {
                "echo": {},
                "run_command": { "action": "require_approval", "approval": { "timeout": "10m" } }
              } }
            """;

    @Test
    void aClientThatResetsItsTimeoutOnProgressWaitsForTheApproval() throws Exception {
        try (ForkedJvm client = start("progress", "2.1.0")) {
            AdminEndpoint admin = AdminEndpoint.of(client, null);
            client.awaitStderr(line -> line.contains("decision=HOLD tool=run_command"));
            // progress every 300 ms against a 1.5 s timeout: past 15 of them the client has outlived five timeouts
            List<String> progress = client.awaitStdoutCount(line -> line.startsWith("{\"progress\":"), 15, Duration.ofSeconds(10));
            assertThat(progress).as(client.dump()).hasSize(15);
            assertThat(client.stdout()).as("still waiting").noneMatch(line -> line.startsWith("{\"result\"") || line.startsWith("{\"error\""));
            JsonNode first = CallMix.JSON.readTree(progress.get(0));
            String id = admin.json("/api/approvals").path("pending").get(0).path("id").asText();
            assertThat(first.path("message").asText()).isEqualTo("awaiting approval " + id);

            assertThat(admin.post("/api/approvals/" + id + "/approve", "{\"approver\":\"alice\"}").statusCode()).isEqualTo(200);
            JsonNode result = CallMix.JSON.readTree(client.awaitStdout(0, line -> line.startsWith("{\"result\"")));
            assertThat(result.path("result").path("content").path(0).path("text").asText()).isEqualTo("run_command done");
            assertThat(client.awaitStdout(0, line -> line.startsWith("{\"echo\""))).isEqualTo("{\"echo\":\"echo: after\"}");
            assertThat(client.stderr()).as(client.dump())
                    .anyMatch(line -> line.contains("decision=ALLOW tool=run_command") && line.contains("approval=approved approver=alice"))
                    .filteredOn(line -> line.startsWith("HANDLER RAN run_command")).hasSize(1);
            finish(client);
        }
    }

    /** "plain": no progress asked for; "noreset": progress asked for and received, but the timeout is not reset by it. */
    @ParameterizedTest
    @ValueSource(strings = {"plain", "noreset"})
    void aClientThatDoesNotResetItsTimeoutTimesOutAndItsCancelGivesTheApprovalUp(String mode) throws Exception {
        try (ForkedJvm client = start(mode, "2.1.0")) {
            AdminEndpoint admin = AdminEndpoint.of(client, null);
            client.awaitStderr(line -> line.contains("decision=HOLD tool=run_command"));
            JsonNode error = CallMix.JSON.readTree(client.awaitStdout(0, line -> line.startsWith("{\"error\"")));
            assertThat(error.path("error").path("code").asInt()).isEqualTo(-32001);
            assertThat(error.path("error").path("message").asText()).contains("Request timed out");

            String cancelled = client.awaitStderr(line -> line.contains("approval=cancelled"));
            assertThat(cancelled).contains("decision=DENY tool=run_command", "reason=\"the client cancelled the request\"");
            assertThat(admin.json("/api/approvals").path("pending")).isEmpty();
            String id = cancelled.replaceAll(".*approval_id=(\\w+).*", "$1");
            assertThat(admin.post("/api/approvals/" + id + "/approve", null).statusCode()).isEqualTo(409);
            assertThat(client.awaitStdout(0, line -> line.startsWith("{\"echo\""))).isEqualTo("{\"echo\":\"echo: after\"}");
            assertThat(client.stdout()).noneMatch(line -> line.startsWith("{\"result\""));
            if (mode.equals("plain")) {
                assertThat(client.stdout()).noneMatch(line -> line.startsWith("{\"progress\""));
            } else {
                assertThat(client.stdout()).as("progress came, and did not keep it waiting").anyMatch(line -> line.startsWith("{\"progress\""));
            }
            assertThat(client.stderr()).as(client.dump()).noneMatch(line -> line.startsWith("HANDLER RAN run_command"));
            finish(client);
        }
    }

    /**
     * SDK 0.10 cannot send progress: even a client that asks for it times out, as one that does not, and its
     * cancel gives the approval up the same way.
     */
    @Test
    void onSdk010ProgressIsNotSentAndTheClientTimesOut() throws Exception {
        try (ForkedJvm client = start("progress", "0.10.0")) {
            AdminEndpoint admin = AdminEndpoint.of(client, null);
            JsonNode error = CallMix.JSON.readTree(client.awaitStdout(0, line -> line.startsWith("{\"error\"")));
            assertThat(error.path("error").path("code").asInt()).isEqualTo(-32001);
            client.awaitStderr(line -> line.contains("approval=cancelled"));
            assertThat(admin.json("/api/approvals").path("pending")).isEmpty();
            assertThat(client.awaitStdout(0, line -> line.startsWith("{\"echo\""))).isEqualTo("{\"echo\":\"echo: after\"}");
            assertThat(client.stdout()).noneMatch(line -> line.startsWith("{\"progress\""));
            finish(client);
        }
    }

    private static ForkedJvm start(String mode, String sdkVersion) throws Exception {
        Path sdk = TypeScriptPeers.sdk();
        String name = "TypeScriptApprovalProgressIT-" + mode + "-" + sdkVersion;
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        Path home = Files.createDirectories(dir.resolve("home"));
        Path script = Path.of(TypeScriptApprovalProgressIT.class.getResource("/ts-approval-client.mjs").toURI());
        List<String> command = new ArrayList<>(List.of("node", script.toString(), sdk.toString(), mode, String.valueOf(TIMEOUT_MS), "--",
                ForkedJvm.javaExecutable(), "-Duser.home=" + home, "-Ddev.mcppolicy.test.approval_progress_ms=" + PROGRESS_MS,
                Fixtures.javaagent("admin=127.0.0.1:0"), "-cp", Fixtures.classPath(sdkVersion), "fixture.FixtureServer", "stdio"));
        return ForkedJvm.startProcess(name, dir, command);
    }

    /** Lets the client close, and checks the agent reported no error of its own meanwhile. */
    private static void finish(ForkedJvm client) throws Exception {
        client.send("close");
        assertThat(client.waitForExit()).as(client.dump()).isZero();
        assertThat(client.stderr()).noneMatch(line -> line.contains("advice error"));
    }
}
