package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 32: decisions on the app's traces, beside the real OpenTelemetry Java agent (2.31.1, from Maven Central; its
 * {@code logging-otlp} exporter writes each batch of spans as OTLP JSON to the app's log). The SDK's streamable HTTP
 * server on Tomcat, which the OTel agent traces: each call's server span carries the decision's attributes and a
 * {@code mcp.policy.decision} event; a held call is an {@code mcp.policy.approval} span under it, ended with its
 * outcome (approved by a person, or timed out). Without OTel the same server loads no OTel class at all.
 */
class OtelIT {
    private static final String POLICY = """
            {
              "version": "1",
              "default": "deny",
              "tools": {
                "echo": {},
                "run_command": { "action": "deny", "reason": "no shell" },
                "transfer": { "action": "require_approval", "approval": { "timeout": "10m" } },
                "wire_money": { "action": "require_approval", "approval": { "timeout": "1s" } }
              }
            }
            """;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void eachDecisionIsOnTheRequestsSpanAndEachHeldCallASpanOfItsOwn() throws Exception {
        Path otelAgent = Path.of(System.getProperty("otel.agent.jar"));
        assertThat(otelAgent).exists();
        Path dir = Fixtures.workDir("otel");
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        String classPath = Fixtures.classPath("2.1.0");
        List<ForkedJvm> jvms = new ArrayList<>();
        try {
            ForkedJvm server = ForkedJvm.start("otel-server", dir, List.of("-javaagent:" + otelAgent, "-Dotel.service.name=fixture-server",
                    "-Dotel.traces.exporter=logging-otlp", "-Dotel.metrics.exporter=none", "-Dotel.logs.exporter=none",
                    "-Dotel.bsp.schedule.delay=100", Fixtures.javaagent("admin=127.0.0.1:0")), classPath, "fixture.FixtureServer",
                    List.of("streamable"));
            jvms.add(server);
            String url = "http://localhost:" + server.awaitStderr(l -> l.startsWith("FIXTURE LISTENING ")).substring(18).trim();
            AdminEndpoint admin = AdminEndpoint.of(server, null);
            ForkedJvm client = ForkedJvm.start("otel-client", Files.createDirectories(dir.resolve("client")), List.of(), classPath,
                    "fixture.FixtureClient", List.of("streamable", url));
            jvms.add(client);
            client.awaitStdout(0, line -> line.equals(">> READY"));

            assertThat(Callers.call(client, "echo")).startsWith("RESULT isError=false");
            assertThat(Callers.call(client, "run_command")).startsWith("RESULT isError=true text=Policy denied tool 'run_command': no shell");
            int from = client.stdout().size();
            client.send("call transfer {\"amount\":5,\"to\":\"bob\"}");
            server.awaitStderr(l -> l.contains("decision=HOLD tool=transfer"));
            String id = admin.json("/api/approvals").path("pending").get(0).path("id").asText();
            HttpResponse<String> approved = admin.post("/api/approvals/" + id + "/approve", "{\"approver\":\"alice\"}");
            assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
            assertThat(client.awaitStdout(from, l -> l.startsWith(">> RESULT"))).startsWith(">> RESULT isError=false");
            assertThat(Callers.call(client, "wire_money")).contains("approval timed out after 1s");

            Map<String, JsonNode> byTool = new HashMap<>();
            Map<String, JsonNode> approvals = new HashMap<>();
            server.awaitStderr(l -> {
                spans(l).forEach(span -> {
                    if (span.path("name").asText().equals("mcp.policy.approval")) {
                        approvals.put(span.path("spanId").asText(), span);
                    } else if (attribute(span, "gen_ai.tool.name") != null) {
                        byTool.put(attribute(span, "gen_ai.tool.name") + " " + attribute(span, "mcp.policy.decision"), span);
                    }
                });
                return approvals.size() == 2 && byTool.size() == 4;
            });

            JsonNode denied = byTool.get("run_command DENY");
            assertThat(denied.path("kind").asInt()).as("the OTel agent's own server span of the request (OTLP's SPAN_KIND_SERVER), not one of ours")
                    .isEqualTo(2);
            assertThat(attribute(denied, "mcp.policy.rule")).isEqualTo("/tools/run_command");
            assertThat(attribute(denied, "mcp.method.name")).isEqualTo("tools/call");
            assertThat(attribute(denied, "mcp.policy.side")).isEqualTo("server");
            assertThat(denied.path("events").findValuesAsText("name")).contains("mcp.policy.decision");
            assertThat(byTool).containsKeys("echo ALLOW", "transfer HOLD", "wire_money HOLD");

            JsonNode approvedOne = approvals.values().stream().filter(s -> "transfer".equals(attribute(s, "gen_ai.tool.name"))).findFirst().orElseThrow();
            assertThat(attribute(approvedOne, "mcp.policy.approval.outcome")).isEqualTo("approved");
            assertThat(attribute(approvedOne, "mcp.policy.approval.approver")).isEqualTo("alice");
            assertThat(attribute(approvedOne, "mcp.policy.decision")).isEqualTo("ALLOW");
            assertThat(attribute(approvedOne, "mcp.policy.approval.id")).isEqualTo(id);
            JsonNode held = byTool.get("transfer HOLD");
            assertThat(approvedOne.path("traceId").asText()).as("in the request's trace").isEqualTo(held.path("traceId").asText());
            assertThat(approvedOne.path("parentSpanId").asText()).isEqualTo(held.path("spanId").asText());
            JsonNode late = approvals.values().stream().filter(s -> "wire_money".equals(attribute(s, "gen_ai.tool.name"))).findFirst().orElseThrow();
            assertThat(attribute(late, "mcp.policy.approval.outcome")).isEqualTo("timed_out");
            assertThat(attribute(late, "mcp.policy.decision")).isEqualTo("DENY");
            assertThat(server.stderr()).as(server.dump()).anyMatch(l -> l.contains("[mcp-policy] otel: the OTel Java agent's OpenTelemetry found"))
                    .noneMatch(l -> l.contains("listener error") || l.contains("advice error"));
        } finally {
            for (ForkedJvm jvm : jvms) {
                jvm.close();
            }
        }
    }

    @Test
    void withoutOpenTelemetryNoOtelClassLoads() throws Exception {
        Path dir = Fixtures.workDir("otel-none");
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        Path classes = dir.resolve("classes.txt");
        String classPath = Fixtures.classPath("2.1.0");
        List<ForkedJvm> jvms = new ArrayList<>();
        try {
            ForkedJvm server = ForkedJvm.start("otel-none-server", dir, List.of("-Xlog:class+load=info:file=" + classes, Fixtures.javaagent("")),
                    classPath, "fixture.FixtureServer", List.of("streamable"));
            jvms.add(server);
            String url = "http://localhost:" + server.awaitStderr(l -> l.startsWith("FIXTURE LISTENING ")).substring(18).trim();
            ForkedJvm client = ForkedJvm.start("otel-none-client", Files.createDirectories(dir.resolve("client")), List.of(), classPath,
                    "fixture.FixtureClient", List.of("streamable", url));
            jvms.add(client);
            client.awaitStdout(0, line -> line.equals(">> READY"));
            assertThat(Callers.call(client, "echo")).startsWith("RESULT isError=false");
            assertThat(Callers.call(client, "run_command")).startsWith("RESULT isError=true");
            server.awaitStderr(l -> l.contains("decision=DENY tool=run_command"));
            List<String> loaded = Files.readAllLines(classes);
            assertThat(loaded).as("the decisions went past the OTel binding").anyMatch(l -> l.contains("dev.mcppolicy.agent.otel.OtelSpans "))
                    .noneMatch(l -> l.contains("io.opentelemetry"));
            assertThat(server.stderr()).noneMatch(l -> l.contains("[mcp-policy] otel:"));
        } finally {
            for (ForkedJvm jvm : jvms) {
                jvm.close();
            }
        }
    }

    /** The spans of one log line of the {@code logging-otlp} exporter (OTLP JSON, {@code resourceSpans}); none for any other line. */
    private static List<JsonNode> spans(String line) {
        int start = line.indexOf("{\"resource");
        if (start < 0) {
            return List.of();
        }
        try {
            JsonNode batch = JSON.readTree(line.substring(start));
            List<JsonNode> spans = new ArrayList<>();
            for (JsonNode scope : batch.path("scopeSpans")) {
                scope.path("spans").forEach(spans::add);
            }
            return spans;
        } catch (Exception notJson) {
            return List.of();
        }
    }

    private static String attribute(JsonNode span, String key) {
        for (JsonNode attribute : span.path("attributes")) {
            if (attribute.path("key").asText().equals(key)) {
                return attribute.path("value").path("stringValue").asText();
            }
        }
        return null;
    }
}
