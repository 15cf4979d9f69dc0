package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.call;
import static dev.mcppolicy.it.StdioRpc.callText;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client that gives a held call up (SPEC §6, issue 13), on a real stdio server under the real agent: its
 * {@code notifications/cancelled} for the request (no SDK version acts on one itself), for a string and a
 * number id, and its going away (stdin closed). Each held call's entry leaves {@code /api/approvals} at once,
 * is logged {@code approval=cancelled} with why, its handler never runs, it is answered with nothing (JSON-RPC:
 * no answer to a cancelled request), and a later approve of its id is 409; the session goes on meanwhile.
 */
class ApprovalCancelIT {
    private static final String POLICY = """
            { "version": "1", "default": "deny",
              "tools": {
                "echo": {},
                "run_command": { "action": "require_approval", "approval": { "timeout": "10m" } }
              } }
            """;
    private static final String CANCELLED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
            + "\"params\":{\"requestId\":%s,\"reason\":\"the user gave up\"}}";

    @ParameterizedTest
    @ValueSource(strings = {"0.10.0", "2.1.0"})
    void aCancelledOrAbandonedCallGivesItsApprovalUp(String sdkVersion) throws Exception {
        String name = "ApprovalCancelIT-" + sdkVersion;
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        Path home = Files.createDirectories(dir.resolve("home"));
        try (ForkedJvm server = StdioRpc.start(name, sdkVersion, dir, List.of("-Duser.home=" + home), "admin=127.0.0.1:0")) {
            initialize(server);
            AdminEndpoint admin = AdminEndpoint.of(server, null);

            // a string id, then a number id (as the TypeScript SDK sends them)
            server.send(call("held", "run_command", "{\"command\":\"ls held\"}"));
            String stringId = awaitHeld(server, admin, 1);
            server.send(CANCELLED.formatted("\"held\""));
            String cancelled = server.awaitStderr(line -> line.contains("approval_id=" + stringId + " approval=cancelled"));
            assertThat(cancelled).contains("decision=DENY tool=run_command side=server rule=/tools/run_command"
                    + " reason=\"the client cancelled the request\"");
            assertThat(admin.json("/api/approvals").path("pending")).as("gone at once").isEmpty();

            server.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"run_command\","
                    + "\"arguments\":{\"command\":\"ls seven\"}}}");
            String numberId = awaitHeld(server, admin, 2);
            server.send(CANCELLED.formatted("\"7\""));
            assertThat(callText(server, "e1", "echo", "{\"text\":\"after a cancel for another id\"}")).isEqualTo("echo: after a cancel"
                    + " for another id");
            assertThat(admin.json("/api/approvals").path("pending")).as("the string \"7\" is not the number 7").hasSize(1);
            server.send(CANCELLED.formatted("7"));
            server.awaitStderr(line -> line.contains("approval_id=" + numberId + " approval=cancelled"));
            assertThat(admin.json("/api/approvals").path("pending")).isEmpty();

            assertThat(callText(server, "e2", "echo", "{\"text\":\"still here\"}")).as("the session goes on").isEqualTo("echo: still here");
            for (String id : List.of(stringId, numberId)) {
                assertThat(admin.post("/api/approvals/" + id + "/approve", null).statusCode()).as("spent by the cancel").isEqualTo(409);
            }

            // the client goes away while two calls are held
            server.send(call("left1", "run_command", "{\"command\":\"ls left1\"}"));
            server.send(call("left2", "run_command", "{\"command\":\"ls left2\"}"));
            assertThat(server.awaitStderrCount(line -> line.contains("decision=HOLD tool=run_command"), 4, Duration.ofSeconds(10))).hasSize(4);
            assertThat(admin.json("/api/approvals").path("pending")).hasSize(2);
            server.closeStdin();
            List<String> closed = server.awaitStderrCount(line -> line.contains("reason=\"the client closed the session\"")
                    && line.contains("approval=cancelled"), 2, Duration.ofSeconds(10));
            assertThat(closed).as(server.dump()).hasSize(2).allMatch(line -> line.contains("decision=DENY tool=run_command"));
            assertThat(server.isAlive()).as("the app itself keeps running").isTrue();
            assertThat(admin.json("/api/approvals").path("pending")).isEmpty();

            List<String> lines = server.stderr();
            assertThat(lines).as(server.dump()).noneMatch(line -> line.contains("HANDLER RAN run_command"))
                    .noneMatch(line -> line.contains("advice error"));
            assertThat(server.stdout()).as("a cancelled request gets no answer")
                    .noneMatch(line -> line.contains("\"id\":\"held\"") || line.contains("\"id\":7") || line.contains("\"id\":\"left"));
        }
    }

    /** Waits for the {@code count}th hold and returns the id of the one call pending now. */
    private static String awaitHeld(ForkedJvm server, AdminEndpoint admin, int count) throws Exception {
        assertThat(server.awaitStderrCount(line -> line.contains("decision=HOLD tool=run_command"), count, Duration.ofSeconds(10)))
                .hasSize(count);
        JsonNode pending = admin.json("/api/approvals").path("pending");
        assertThat(pending).hasSize(1);
        return pending.get(0).path("id").asText();
    }
}
