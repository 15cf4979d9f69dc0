package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.answer;
import static dev.mcppolicy.it.StdioRpc.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code "approval": {"via": "elicitation"}} on the SDK 2.2 modern API (protocol 2026-07-28, issue 30): a client that
 * declares form elicitation in its request's {@code _meta} gets the protocol's own {@code InputRequiredResult} (the
 * agent's question for its user, and a {@code requestState} the SDK seals); no thread is held. Its retry with the
 * answer decides the call: accept approves (the tool runs once, with a request without the agent's key and state),
 * decline denies, a retry that changes the call or comes again after the decision is denied. A client without the
 * capability is held on the admin channel as before. Raw JSON-RPC over stdio to the modern fixture server.
 */
class Sdk220ModernElicitationApprovalIT {
    private static final String POLICY = """
            { "version": "1", "default": "deny",
              "tools": {
                "echo": {},
                "run_command": { "action": "require_approval", "approval": { "via": "elicitation", "timeout": "10m" } }
              } }
            """;
    private static final String KEY = "mcp-policy/approval";

    @Test
    void aClientThatCanAskItsUserGetsTheProtocolsQuestionAndItsRetryDecides() throws Exception {
        String name = "Sdk220ModernElicitationApprovalIT";
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        try (ForkedJvm server = StdioRpc.start(name, StdioRpc.MODERN, dir, List.of(), "admin=127.0.0.1:0,audit=audit.jsonl")) {
            AdminEndpoint admin = AdminEndpoint.of(server, null);

            // asked: an InputRequiredResult with the agent's question, nothing run, the call held for its answer
            server.send(call("a1", "{\"command\":\"ls one\"}", true, null, null));
            JsonNode asked = answer(server, "a1").path("result");
            assertThat(asked.path("resultType").asText()).as(asked.toString()).isEqualTo("input_required");
            JsonNode question = asked.path("inputRequests").path(KEY);
            assertThat(question.path("method").asText()).isEqualTo("elicitation/create");
            assertThat(question.path("params").path("message").asText()).startsWith("Approve the tool call 'run_command'? The policy rule "
                    + "/tools/run_command requires").doesNotContain("ls one");
            assertThat(question.path("params").path("requestedSchema").path("properties").path("approve").path("type").asText())
                    .isEqualTo("boolean");
            String state = asked.path("requestState").asText();
            assertThat(state).as("sealed by the SDK: the agent's own text does not show").isNotEmpty().doesNotContain("mcp-policy");
            assertThat(admin.json("/api/approvals").path("pending")).as("listed on the admin channel too").hasSize(1);
            assertThat(server.stderr()).noneMatch(line -> line.contains("HANDLER RAN run_command"));

            // the retry with the user's yes: the tool runs once
            server.send(call("a2", "{\"command\":\"ls one\"}", true, state, "{\"action\":\"accept\",\"content\":{\"approve\":true}}"));
            assertThat(text(answer(server, "a2"))).isEqualTo("run_command done");
            server.awaitStderr(line -> line.equals("HANDLER RAN run_command {command=ls one}"));

            // the same answer again: the approval is spent
            server.send(call("a3", "{\"command\":\"ls one\"}", true, state, "{\"action\":\"accept\",\"content\":{\"approve\":true}}"));
            assertThat(text(answer(server, "a3"))).startsWith("Policy denied tool 'run_command': the approval ")
                    .contains("is no longer held");

            // a no with a reason: denied with it
            server.send(call("b1", "{\"command\":\"ls two\"}", true, null, null));
            String second = answer(server, "b1").path("result").path("requestState").asText();
            server.send(call("b2", "{\"command\":\"ls two\"}", true, second,
                    "{\"action\":\"accept\",\"content\":{\"approve\":false,\"reason\":\"not today\"}}"));
            assertThat(text(answer(server, "b2"))).startsWith("Policy denied tool 'run_command': approval denied by raw-client")
                    .contains("not today").endsWith("[rule /tools/run_command]");

            // a retry that changes the call: the approval was for another one
            server.send(call("c1", "{\"command\":\"ls three\"}", true, null, null));
            String third = answer(server, "c1").path("result").path("requestState").asText();
            server.send(call("c2", "{\"command\":\"rm -rf /\"}", true, third, "{\"action\":\"accept\",\"content\":{\"approve\":true}}"));
            assertThat(text(answer(server, "c2"))).startsWith("Policy denied tool 'run_command': the call sent with approval ")
                    .contains("is not the call that was held");

            // a client that cannot ask: held on the admin channel, which decides
            server.send(call("d1", "{\"command\":\"ls four\"}", false, null, null));
            server.awaitStderr(line -> line.contains("decision=HOLD tool=run_command") && line.contains("approval_via=admin"));
            String id = null;
            for (JsonNode pending : admin.json("/api/approvals").path("pending")) {
                if ("admin".equals(pending.path("via").asText())) {
                    id = pending.path("id").asText();
                }
            }
            assertThat(id).as("the admin-channel hold").isNotNull();
            HttpResponse<String> approved = admin.post("/api/approvals/" + id + "/approve", "{\"approver\":\"alice\"}");
            assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
            assertThat(text(answer(server, "d1"))).isEqualTo("run_command done");

            List<String> lines = server.stderr();
            assertThat(lines.stream().filter(line -> line.startsWith("HANDLER RAN run_command")).toList()).as(server.dump())
                    .containsExactly("HANDLER RAN run_command {command=ls one}", "HANDLER RAN run_command {command=ls four}");
            assertThat(lines).anyMatch(line -> line.contains("decision=HOLD tool=run_command") && line.contains("approval_via=elicitation"))
                    .anyMatch(line -> line.contains("decision=ALLOW tool=run_command") && line.contains("approval=approved approver=raw-client"))
                    .anyMatch(line -> line.contains("decision=DENY tool=run_command") && line.contains("approval=denied approver=raw-client"))
                    .noneMatch(line -> line.contains("advice error"));
        }
    }

    /**
     * The SDK's own modern client with a form-elicitation handler (its user answers {@code accept} or {@code decline}):
     * it gets the agent's question in an {@code InputRequiredResult}, asks, and sends the call again itself; the
     * answer decides, and the tool runs only when approved.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"accept", "decline"})
    void theSdksOwnClientAsksItsUserAndSendsTheCallAgain(String user) throws Exception {
        String name = "Sdk220ModernElicitationApprovalIT-client-" + user;
        try (McpPair pair = McpPair.startModern(name, "stdio", false, POLICY, "{ \"version\": \"1\", \"default\": \"allow\" }",
                "admin=127.0.0.1:0", "", List.of("-Dfixture.elicit=" + user))) {
            String answer = pair.call("run_command", "{\"command\":\"ls\"}");
            if (user.equals("accept")) {
                assertThat(answer).as(pair.dump()).isEqualTo("RESULT isError=false text=run_command done");
            } else {
                assertThat(answer).as(pair.dump()).startsWith("RESULT isError=true text=Policy denied tool 'run_command': approval denied by "
                        + "fixture-client").endsWith("[rule /tools/run_command]");
            }
            pair.sync();
            assertThat(pair.clientLog()).as(pair.dump()).anyMatch(line -> line.startsWith("ELICITED Approve the tool call 'run_command'?"));
            assertThat(pair.serverLog()).as(pair.dump())
                    .anyMatch(line -> line.contains("decision=HOLD tool=run_command") && line.contains("approval_via=elicitation"))
                    .anyMatch(line -> line.contains(user.equals("accept") ? "decision=ALLOW tool=run_command" : "decision=DENY tool=run_command")
                            && line.contains("approver=fixture-client"))
                    .filteredOn(line -> line.startsWith("HANDLER RAN run_command")).hasSize(user.equals("accept") ? 1 : 0);
        }
    }

    /** A modern {@code tools/call} of run_command; {@code elicits}: the client declares form elicitation; a retry carries state and answer. */
    private static String call(String id, String arguments, boolean elicits, String state, String answer) throws Exception {
        ObjectNode request = (ObjectNode) CallMix.JSON.readTree(StdioRpc.forSdk(StdioRpc.MODERN, StdioRpc.call(id, "run_command", arguments)));
        ObjectNode params = (ObjectNode) request.get("params");
        if (elicits) {
            ((ObjectNode) params.get("_meta")).putObject("io.modelcontextprotocol/clientCapabilities").putObject("elicitation").putObject("form");
        }
        if (state != null) {
            params.put("requestState", state);
            params.putObject("inputResponses").set(KEY, CallMix.JSON.readTree(answer));
        }
        return request.toString();
    }
}
