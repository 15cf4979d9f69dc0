package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.answer;
import static dev.mcppolicy.it.StdioRpc.call;
import static dev.mcppolicy.it.StdioRpc.callText;
import static dev.mcppolicy.it.StdioRpc.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code "approval": {"via": "elicitation"}} end to end (issue 13) on a real stdio SDK server under the real agent:
 * a raw JSON-RPC client that declared the {@code elicitation} capability is asked ({@code elicitation/create}) and
 * answers itself. Accept approves (the handler runs once), decline with a reason denies with it, two held calls
 * answered in the other order get each their own answer, and an operator on the admin channel can decide first
 * (the request is then given up, and the client's late answer changes nothing). A client without the capability
 * (or on SDK 0.10, which has no elicitation) is not asked: its held call is decided on the admin channel alone,
 * and that is said once for the session. SDK 0.14.0 is the oldest fixture with elicitation; 2.1.0 the newest (its
 * request is an interface with a form builder), also over streamable HTTP.
 */
class ElicitationApprovalIT {
    private static final String POLICY = """
            { "version": "1", "default": "deny",
              "tools": {
                "echo": {},
                "run_command": { "action": "require_approval", "approval": { "via": "elicitation", "timeout": "10m" } }
              } }
            """;
    private static final String ELICITING_CLIENT = "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"elicitation\":{}},\"clientInfo\":{\"name\":\"elicit-client\","
            + "\"version\":\"1.0\"}}}";
    private static final String PLAIN_CLIENT = "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"plain-client\",\"version\":\"1.0\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    @ParameterizedTest
    @ValueSource(strings = {"0.14.0", "2.1.0"})
    void theCallersOwnClientIsAskedAndItsAnswerDecides(String sdkVersion) throws Exception {
        String name = "ElicitationApprovalIT-" + sdkVersion;
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        Path home = Files.createDirectories(dir.resolve("home"));
        try (ForkedJvm server = StdioRpc.start(name, sdkVersion, dir, List.of("-Duser.home=" + home), "admin=127.0.0.1:0,audit=audit.jsonl")) {
            initialize(server, ELICITING_CLIENT);
            AdminEndpoint admin = AdminEndpoint.of(server, null);
            Set<String> asked = new HashSet<>();

            // accept with approve=true: the handler runs once and the client gets the tool's result
            server.send(call("a1", "run_command", "{\"command\":\"ls one\"}"));
            JsonNode request = nextElicitation(server, asked);
            String message = request.path("params").path("message").asText();
            assertThat(message).startsWith("Approve the tool call 'run_command'? The policy rule /tools/run_command requires")
                    .contains("Argument keys: command\n").contains("Arguments SHA-256: ").doesNotContain("ls one");
            JsonNode schema = request.path("params").path("requestedSchema");
            assertThat(schema.path("properties").path("approve").path("type").asText()).isEqualTo("boolean");
            assertThat(schema.path("properties").path("reason").path("type").asText()).isEqualTo("string");
            assertThat(schema.path("required").get(0).asText()).isEqualTo("approve");
            JsonNode pending = admin.json("/api/approvals").path("pending");
            assertThat(pending).as("listed on the admin channel too").hasSize(1);
            String approvedId = pending.get(0).path("id").asText();
            assertThat(pending.get(0).path("via").asText()).isEqualTo("elicitation");
            assertThat(message).contains("Approval id: " + approvedId + ".");
            assertThat(callText(server, "e1", "echo", "{\"text\":\"meanwhile\"}")).as("the session goes on while one is held")
                    .isEqualTo("echo: meanwhile");
            assertThat(server.stderr()).noneMatch(line -> line.contains("HANDLER RAN run_command"));
            server.send(reply(request, "accept", "{\"approve\":true}"));
            assertThat(text(answer(server, "a1"))).isEqualTo("run_command done");

            // decline with a reason: the §5 denial carries it, the handler does not run
            server.send(call("d1", "run_command", "{\"command\":\"ls two\"}"));
            request = nextElicitation(server, asked);
            server.send(reply(request, "decline", "{\"reason\":\"not today\"}"));
            assertThat(text(answer(server, "d1"))).isEqualTo("Policy denied tool 'run_command': approval denied by elicit-client:"
                    + " not today [rule /tools/run_command]");

            // two held at once, answered in the other order than asked
            server.send(call("x1", "run_command", "{\"command\":\"ls x1\"}"));
            JsonNode first = nextElicitation(server, asked);
            server.send(call("x2", "run_command", "{\"command\":\"ls x2\"}"));
            JsonNode second = nextElicitation(server, asked);
            assertThat(admin.json("/api/approvals").path("pending")).hasSize(2);
            server.send(reply(second, "accept", "{\"approve\":true}"));
            assertThat(text(answer(server, "x2"))).isEqualTo("run_command done");
            server.send(reply(first, "accept", "{\"approve\":false,\"reason\":\"x1 is not needed\"}"));
            assertThat(text(answer(server, "x1"))).isEqualTo("Policy denied tool 'run_command': approval denied by elicit-client:"
                    + " x1 is not needed [rule /tools/run_command]");

            // the operator decides first; the client's late answer changes nothing
            server.send(call("m1", "run_command", "{\"command\":\"ls m1\"}"));
            JsonNode late = nextElicitation(server, asked);
            String operatorId = admin.json("/api/approvals").path("pending").get(0).path("id").asText();
            HttpResponse<String> denied = admin.post("/api/approvals/" + operatorId + "/deny", "{\"reason\":\"not on prod\",\"approver\":\"bob\"}");
            assertThat(denied.statusCode()).as(denied.body()).isEqualTo(200);
            assertThat(text(answer(server, "m1"))).isEqualTo("Policy denied tool 'run_command': approval denied by bob: not on prod"
                    + " [rule /tools/run_command]");
            // the agent gave the request up when bob decided, so the SDK drops its answer; the echo after it shows it was read
            server.send(reply(late, "accept", "{\"approve\":true}"));
            assertThat(callText(server, "e2", "echo", "{\"text\":\"after\"}")).isEqualTo("echo: after");

            List<String> lines = server.stderr();
            assertThat(lines).as(server.dump())
                    .anyMatch(line -> line.contains("decision=HOLD tool=run_command side=server rule=/tools/run_command")
                            && line.contains(" approval_id=" + approvedId + " approval_via=elicitation session="))
                    .anyMatch(line -> line.contains("decision=ALLOW tool=run_command side=server rule=/tools/run_command approval_id="
                            + approvedId + " approval=approved approver=elicit-client waited_ms=") && line.contains(" approval_via=elicitation "))
                    .anyMatch(line -> line.contains("decision=DENY tool=run_command side=server rule=/tools/run_command reason=\"approval"
                            + " denied by elicit-client: not today\" approval_id=") && line.contains(" approval=denied approver=elicit-client ")
                            && line.contains(" approval_via=elicitation "))
                    .anyMatch(line -> line.contains("approval_id=" + operatorId + " approval=denied approver=bob waited_ms=")
                            && line.contains(" approval_via=admin "))
                    .noneMatch(line -> line.contains("advice error"));
            assertThat(lines.stream().filter(line -> line.contains("HANDLER RAN run_command")).toList())
                    .as("only the approved calls ran, once each")
                    .containsExactlyInAnyOrder("HANDLER RAN run_command {command=ls one}", "HANDLER RAN run_command {command=ls x2}");
            assertThat(AuditFiles.awaitLines(dir.resolve("audit.jsonl"), 12)).as("5 holds, 5 outcomes, 2 echoes").hasSize(12)
                    .anyMatch(record -> record.contains("\"approval\":\"held\"") && record.contains("\"approval_via\":\"elicitation\""));
            assertThat(admin.json("/api/approvals").path("pending")).isEmpty();
        }
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        "0.14.0 | false | the client 'plain-client' did not declare the elicitation capability",
        "2.1.0  | false | the client 'plain-client' did not declare the elicitation capability",
        "0.10.0 | true  | this MCP SDK has no elicitation (no McpAsyncServerExchange.createElicitation)",
    })
    void aClientThatCannotBeAskedLeavesTheCallToTheAdminChannel(String sdkVersion, boolean declares, String why) throws Exception {
        String name = "ElicitationFallbackIT-" + sdkVersion;
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        Path home = Files.createDirectories(dir.resolve("home"));
        try (ForkedJvm server = StdioRpc.start(name, sdkVersion, dir, List.of("-Duser.home=" + home), "admin=127.0.0.1:0")) {
            initialize(server, declares ? ELICITING_CLIENT : PLAIN_CLIENT);
            AdminEndpoint admin = AdminEndpoint.of(server, null);
            int held = 0;
            for (String id : List.of("p1", "p2")) {
                server.send(call(id, "run_command", "{\"command\":\"ls " + id + "\"}"));
                held++;
                assertThat(server.awaitStderrCount(line -> line.contains("decision=HOLD tool=run_command") && line.contains(" approval_via=admin "),
                        held, Duration.ofSeconds(10))).hasSize(held);
                JsonNode pending = admin.json("/api/approvals").path("pending");
                assertThat(pending).hasSize(1);
                assertThat(pending.get(0).path("via").asText()).isEqualTo("admin");
                HttpResponse<String> approved = admin.post("/api/approvals/" + pending.get(0).path("id").asText() + "/approve",
                        "{\"approver\":\"alice\"}");
                assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
                assertThat(text(answer(server, id))).isEqualTo("run_command done");
            }
            List<String> lines = server.stderr();
            assertThat(lines).as(server.dump()).noneMatch(line -> line.contains("advice error"))
                    .anyMatch(line -> line.contains("approval=approved approver=alice waited_ms=") && line.contains(" approval_via=admin "));
            List<String> told = lines.stream().filter(line -> line.contains("approval via elicitation: session ")).toList();
            assertThat(told).as("said once for the session").hasSize(1);
            assertThat(told.get(0)).contains(why + "; its held calls are asked on the admin channel alone");
            assertThat(server.stdout()).as("the client was never asked").noneMatch(line -> line.contains("elicitation/create"));
            assertThat(lines.stream().filter(line -> line.contains("HANDLER RAN run_command")).toList()).hasSize(2);
        }
    }

    /**
     * Streamable HTTP (SDK 2.1.0): the question goes out on the held {@code tools/call}'s own SSE response stream,
     * the client POSTs its answer, and the tool's result then comes on that same stream.
     */
    @org.junit.jupiter.api.Test
    void overStreamableHttpTheQuestionComesOnTheHeldRequestsStream() throws Exception {
        String name = "ElicitationStreamableIT";
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        try (ForkedJvm server = ForkedJvm.start(name, dir, List.of(Fixtures.javaagent("admin=127.0.0.1:0")), Fixtures.classPath("2.1.0"),
                "fixture.FixtureServer", List.of("streamable"))) {
            String listening = server.awaitStderr(line -> line.startsWith("FIXTURE LISTENING "));
            java.net.URI mcp = java.net.URI.create("http://localhost:" + listening.substring("FIXTURE LISTENING ".length()).trim() + "/mcp");
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            HttpResponse<String> init = http.send(post(mcp, null, ELICITING_CLIENT), HttpResponse.BodyHandlers.ofString());
            assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
            String session = init.headers().firstValue("mcp-session-id").orElseThrow();
            assertThat(http.send(post(mcp, session, INITIALIZED), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(202);

            java.util.concurrent.BlockingQueue<String> events = new java.util.concurrent.LinkedBlockingQueue<>();
            HttpResponse<java.util.stream.Stream<String>> held = http.send(post(mcp, session,
                    call("h1", "run_command", "{\"command\":\"ls http\"}")), HttpResponse.BodyHandlers.ofLines());
            assertThat(held.statusCode()).isEqualTo(200);
            Thread reader = new Thread(() -> held.body().filter(line -> line.startsWith("data:"))
                    .forEach(line -> events.add(line.substring("data:".length()).trim())), name + "-sse");
            reader.setDaemon(true);
            reader.start();
            JsonNode request = CallMix.JSON.readTree(nextEvent(events, server));
            assertThat(request.path("method").asText()).isEqualTo("elicitation/create");
            assertThat(request.path("params").path("message").asText()).startsWith("Approve the tool call 'run_command'?");
            HttpResponse<String> answered = http.send(post(mcp, session, reply(request, "accept", "{\"approve\":true}")),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answered.statusCode()).as(answered.body()).isEqualTo(202);
            JsonNode result = CallMix.JSON.readTree(nextEvent(events, server));
            assertThat(result.path("id").asText()).isEqualTo("h1");
            assertThat(text(result)).isEqualTo("run_command done");
            assertThat(server.stderr()).as(server.dump()).noneMatch(line -> line.contains("advice error"))
                    .anyMatch(line -> line.contains("approval=approved approver=elicit-client") && line.contains(" approval_via=elicitation "))
                    .containsOnlyOnce("HANDLER RAN run_command {command=ls http}");
        }
    }

    private static java.net.http.HttpRequest post(java.net.URI mcp, String session, String body) {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(mcp).timeout(ForkedJvm.TIMEOUT)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
        }
        return request.build();
    }

    private static String nextEvent(java.util.concurrent.BlockingQueue<String> events, ForkedJvm server) throws InterruptedException {
        String event = events.poll(ForkedJvm.TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        assertThat(event).as("an event on the held request's stream\n" + server.dump()).isNotNull();
        return event;
    }

    private static void initialize(ForkedJvm server, String initialize) throws Exception {
        server.send(initialize);
        server.awaitStdout(0, line -> line.contains("\"id\":\"init\""));
        server.send(INITIALIZED);
    }

    /** The next {@code elicitation/create} request the server sent that this test has not taken yet. */
    private static JsonNode nextElicitation(ForkedJvm server, Set<String> taken) throws Exception {
        String line = server.awaitStdout(0, candidate -> candidate.contains("\"method\":\"elicitation/create\"") && !taken.contains(candidate));
        taken.add(line);
        return CallMix.JSON.readTree(line);
    }

    /** The client's answer to {@code request}: {@code {"action": action, "content": content}} under the request's own id. */
    private static String reply(JsonNode request, String action, String content) throws Exception {
        ObjectNode response = CallMix.JSON.createObjectNode();
        response.put("jsonrpc", "2.0");
        response.set("id", request.path("id"));
        ObjectNode result = response.putObject("result");
        result.put("action", action);
        result.set("content", CallMix.JSON.readTree(content));
        return CallMix.JSON.writeValueAsString(response);
    }
}
