package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.call;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static dev.mcppolicy.it.StdioRpc.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many calls held for approval at once (SPEC §6, issue 13) on a real stdio server under the real agent: a
 * pipelining client writes {@value #HELD} calls that need approval and {@value #ECHOES} that do not, without
 * waiting; the echoes are answered while all are held; the held ones are then decided from several threads
 * in shuffled order, half approved and half denied, and each is answered exactly once with its own outcome,
 * the handler running exactly for the approved ones. A small {@code approval.max_pending} denies the call
 * beyond it at once.
 */
class ManyApprovalsIT {
    static final int HELD = 40;
    static final int ECHOES = 20;
    private static final String POLICY = """
            { "version": "1", "default": "deny",
              "tools": {
                "echo": {},
                "run_command": { "action": "require_approval", "approval": { "timeout": "10m" } }
              } }
            """;
    private static final Duration QUIET = Duration.ofSeconds(10);

    @ParameterizedTest
    @ValueSource(strings = {"0.10.0", "2.1.0"})
    void decidesFortyHeldCallsInShuffledOrderEachAnsweredOnce(String sdkVersion) throws Exception {
        String name = "ManyApprovalsIT-" + sdkVersion;
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        Path home = Files.createDirectories(dir.resolve("home"));
        try (ForkedJvm server = StdioRpc.start(name, sdkVersion, dir, List.of("-Duser.home=" + home),
                "admin=127.0.0.1:0,log_arguments=true,audit=audit.jsonl")) {
            initialize(server);
            AdminEndpoint admin = AdminEndpoint.of(server, null);

            List<String> requests = new ArrayList<>();
            for (int i = 0; i < HELD; i++) {
                requests.add(call("h" + i, "run_command", "{\"command\":\"ls h" + i + "\"}"));
                if (i % 2 == 0) {
                    requests.add(call("e" + i / 2, "echo", "{\"text\":\"e" + i / 2 + "\"}"));
                }
            }
            server.sendAll(requests);

            List<String> echoes = server.awaitStdoutCount(line -> line.contains("\"id\":\"e"), ECHOES, QUIET);
            assertThat(echoes).as("answered while %d calls are held%n%s", HELD, server.dump()).hasSize(ECHOES);
            assertThat(server.awaitStderrCount(line -> line.contains("decision=HOLD tool=run_command"), HELD, QUIET)).hasSize(HELD);
            JsonNode pending = admin.json("/api/approvals").path("pending");
            assertThat(pending).hasSize(HELD);
            assertThat(server.stdout()).noneMatch(line -> line.contains("\"id\":\"h"));

            // each pending entry shows its arguments (log_arguments=true): which request it holds
            Map<String, String> approvalOf = new HashMap<>();
            pending.forEach(entry -> approvalOf.put(entry.path("args").asText().replaceAll(".*ls (h\\d+).*", "$1"), entry.path("id").asText()));
            assertThat(approvalOf).hasSize(HELD);
            List<String> order = new ArrayList<>(approvalOf.keySet());
            Collections.shuffle(order, new Random(13));
            List<String> approved = order.subList(0, HELD / 2);
            ExecutorService approvers = Executors.newFixedThreadPool(8);
            try {
                List<CompletableFuture<HttpResponse<String>>> decisions = new ArrayList<>();
                for (String request : order) {
                    String path = "/api/approvals/" + approvalOf.get(request) + (approved.contains(request) ? "/approve" : "/deny");
                    String body = approved.contains(request) ? "{\"approver\":\"alice\"}" : "{\"approver\":\"bob\",\"reason\":\"not " + request + "\"}";
                    decisions.add(CompletableFuture.supplyAsync(() -> {
                        try {
                            return admin.post(path, body);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }, approvers));
                }
                for (CompletableFuture<HttpResponse<String>> decision : decisions) {
                    assertThat(decision.get().statusCode()).as(decision.get().body()).isEqualTo(200);
                }
            } finally {
                approvers.shutdownNow();
            }

            List<String> answers = server.awaitStdoutCount(line -> line.contains("\"id\":\"h"), HELD, QUIET);
            Map<String, List<JsonNode>> byId = new HashMap<>();
            for (String line : server.stdout()) {
                if (!line.startsWith("{")) {
                    continue;
                }
                JsonNode answer = CallMix.JSON.readTree(line);
                byId.computeIfAbsent(answer.path("id").asText(), id -> new ArrayList<>()).add(answer);
            }
            assertThat(answers).as(server.dump()).hasSize(HELD);
            for (String request : order) {
                assertThat(byId.get(request)).as("answered exactly once: " + request).hasSize(1);
                String expected = approved.contains(request) ? "run_command done"
                        : "Policy denied tool 'run_command': approval denied by bob: not " + request + " [rule /tools/run_command]";
                assertThat(text(byId.get(request).get(0))).as(request).isEqualTo(expected);
            }

            List<String> lines = server.awaitStderrCount(line -> line.contains("approval=approved") || line.contains("approval=denied"),
                    HELD, QUIET);
            assertThat(lines).hasSize(HELD);
            assertThat(lines.stream().filter(line -> line.contains("decision=ALLOW") && line.contains("approver=alice"))).hasSize(HELD / 2);
            assertThat(lines.stream().filter(line -> line.contains("decision=DENY") && line.contains("approver=bob"))).hasSize(HELD / 2);
            List<String> ran = new ArrayList<>();
            for (String line : server.stderr()) {
                if (line.startsWith("HANDLER RAN run_command")) {
                    ran.add(line.replaceAll(".*ls (h\\d+).*", "$1"));
                }
            }
            assertThat(ran).as("the handler ran once for each approved call and for no other").containsExactlyInAnyOrderElementsOf(approved);
            assertThat(server.stderr()).filteredOn(line -> line.startsWith("HANDLER RAN echo")).hasSize(ECHOES);
            assertThat(server.stderr()).noneMatch(line -> line.contains("advice error") || line.contains("Failed to enqueue"));
            assertThat(AuditFiles.awaitLines(dir.resolve("audit.jsonl"), 2 * HELD + ECHOES)).as("a hold and an outcome each, and the echoes")
                    .hasSize(2 * HELD + ECHOES);
            assertThat(admin.json("/api/approvals").path("pending")).isEmpty();
        }
    }

    @Test
    void deniesTheCallBeyondMaxPendingAtOnce() throws Exception {
        String name = "ManyApprovalsIT-max-pending";
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        Path home = Files.createDirectories(dir.resolve("home"));
        try (ForkedJvm server = StdioRpc.start(name, "2.1.0", dir, List.of("-Duser.home=" + home),
                "admin=127.0.0.1:0,approval.max_pending=5")) {
            initialize(server);
            AdminEndpoint admin = AdminEndpoint.of(server, null);
            List<String> requests = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                requests.add(call("m" + i, "run_command", "{\"command\":\"ls m" + i + "\"}"));
            }
            server.sendAll(requests);

            List<String> full = server.awaitStdoutCount(line -> line.contains("\"id\":\"m"), 1, QUIET);
            assertThat(full).as(server.dump()).hasSize(1);
            assertThat(text(CallMix.JSON.readTree(full.get(0)))).isEqualTo("Policy denied tool 'run_command': too many calls awaiting"
                    + " approval [rule /tools/run_command]");
            assertThat(server.awaitStderrCount(line -> line.contains("decision=HOLD"), 5, QUIET)).hasSize(5);
            assertThat(server.stderr()).anyMatch(line -> line.contains("decision=DENY tool=run_command")
                    && line.contains("reason=\"too many calls awaiting approval\""));
            JsonNode pending = admin.json("/api/approvals").path("pending");
            assertThat(pending).hasSize(5);

            // one decided: room for one more
            String first = pending.get(0).path("id").asText();
            assertThat(admin.post("/api/approvals/" + first + "/approve", null).statusCode()).isEqualTo(200);
            server.awaitStdoutCount(line -> line.contains("\"id\":\"m"), 2, QUIET);
            server.send(call("again", "run_command", "{\"command\":\"ls again\"}"));
            assertThat(server.awaitStderrCount(line -> line.contains("decision=HOLD"), 6, QUIET)).hasSize(6);
            assertThat(admin.json("/api/approvals").path("pending")).hasSize(5);
            assertThat(server.stderr()).filteredOn(line -> line.startsWith("HANDLER RAN run_command")).hasSize(1);
            assertThat(server.stderr()).noneMatch(line -> line.contains("advice error"));
        }
    }
}
