package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.answer;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code require_approval} on a resource read and a prompt (SPEC §12 with §6), over raw JSON-RPC on stdio to a fixture
 * server under the agent: a held read does not reach its handler; approved, it runs and its answer is judged by the
 * rule's {@code result} (the planted key redacted, a line saying so after the hold's and the outcome's); denied, the
 * caller gets the JSON-RPC error with the §5 text. The oldest and newest classic SDK.
 */
class ResourceApprovalIT {
    private static final String POLICY = """
            { "version": "1", "default": "deny",
              "tools": { "echo": {} },
              "resource_default": "deny",
              "resources": {
                "file:///public/*": { "action": "require_approval", "approval": { "timeout": "10m" },
                                       "result": { "redact": ["secrets"] } }
              },
              "prompts": { "leaky": { "action": "require_approval", "approval": { "timeout": "10m" } } } }
            """;

    @ParameterizedTest
    @ValueSource(strings = {"0.10.0", "2.1.0"})
    void heldReadsAndPromptsRunOnlyWhenApprovedAndTheirAnswersAreStillJudged(String sdkVersion) throws Exception {
        String name = "ResourceApprovalIT-" + sdkVersion;
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        Path home = Files.createDirectories(dir.resolve("home"));
        try (ForkedJvm server = StdioRpc.start(name, sdkVersion, dir, List.of("-Duser.home=" + home, "-Dfixture.catalog=true"),
                "admin=127.0.0.1:0")) {
            initialize(server);
            AdminEndpoint admin = AdminEndpoint.of(server, null);

            server.send(request("read", "resources/read", "{\"uri\":\"file:///public/keys.txt\"}"));
            server.awaitStderr(line -> line.contains("decision=HOLD kind=resource uri=file:///public/keys.txt"));
            server.send(request("prompt", "prompts/get", "{\"name\":\"leaky\",\"arguments\":{}}"));
            server.awaitStderr(line -> line.contains("decision=HOLD kind=prompt prompt=leaky"));
            assertThat(server.stderr()).noneMatch(line -> line.startsWith("RESOURCE READ") || line.startsWith("PROMPT GOT"));

            JsonNode pending = admin.json("/api/approvals").path("pending");
            assertThat(pending).as(server.dump()).hasSize(2);
            String readId = pending.get(0).path("id").asText();
            String promptId = pending.get(1).path("id").asText();

            HttpResponse<String> denied = admin.post("/api/approvals/" + promptId + "/deny", "{\"reason\":\"not now\",\"approver\":\"bob\"}");
            assertThat(denied.statusCode()).as(denied.body()).isEqualTo(200);
            assertThat(answer(server, "prompt").path("error").path("message").asText())
                    .endsWith("Policy denied prompt 'leaky': approval denied by bob: not now [rule /prompts/leaky]");

            HttpResponse<String> approved = admin.post("/api/approvals/" + readId + "/approve", "{\"approver\":\"alice\"}");
            assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
            JsonNode read = answer(server, "read");
            assertThat(read.path("result").path("contents").path(0).path("text").asText()).as(server.dump())
                    .isEqualTo("deploy key id=[REDACTED:aws-access-token] ok");

            List<String> lines = server.awaitStderrCount(line -> line.contains("kind=resource uri=file:///public/keys.txt"), 3,
                    Duration.ofSeconds(10));
            assertThat(lines).as(server.dump()).hasSize(3);
            assertThat(lines.get(0)).contains("decision=HOLD");
            assertThat(lines.get(1)).contains("decision=ALLOW", "approval=approved", "approver=alice");
            assertThat(lines.get(2)).contains("decision=ALLOW", "rule=/resources/file:~1~1~1public~1*/result", "redacted=aws-access-token:1");
            assertThat(server.stderr()).filteredOn(line -> line.startsWith("PROMPT GOT")).isEmpty();
            assertThat(server.stderr()).noneMatch(line -> line.contains("advice error") || line.contains("mcp-policy") && line.contains("AKIA"));
        }
    }

    private static String request(String id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"" + method + "\",\"params\":" + params + "}";
    }
}
