package dev.mcppolicy.it;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Many calls in flight at once on the SDK 2.2 modern API (issue 30), as {@link AbstractConcurrencyScenarios} proves
 * them on the classic one: {@value AbstractConcurrencyScenarios#CALLS} pipelined {@code tools/call} requests of the
 * 2026-07-28 protocol over stdio, the same as concurrent POSTs over HTTP, and many threads of one modern client:
 * every request answered exactly once, exactly as many admitted as the limit allows, one decision line and one
 * audit record per call.
 */
class Sdk220ModernConcurrencyIT {
    private static final int CALLS = AbstractConcurrencyScenarios.CALLS;

    private String name(String scenario) {
        return getClass().getSimpleName() + "-" + scenario;
    }

    @Test
    void answersEveryPipelinedCallExactlyOnceOverStdio() throws Exception {
        Path dir = Fixtures.workDir(name("stdio"));
        Files.writeString(dir.resolve("mcp-policy.json"), CallMix.POLICY);
        CallMix mix = new CallMix(CALLS);
        try (ForkedJvm server = ForkedJvm.start(name("stdio"), dir, List.of(Fixtures.javaagent("audit=audit.jsonl")),
                Fixtures.classPath(McpPair.MODERN_SDK), "fixture.ModernServer", List.of("stdio"))) {
            AbstractConcurrencyScenarios.pipelineOverStdio(server, dir, mix, mix.modernRequests());
        }
    }

    @Test
    void answersEveryConcurrentCallExactlyOnceOverHttp() throws Exception {
        Path dir = Fixtures.workDir(name("http"));
        Files.writeString(dir.resolve("mcp-policy.json"), CallMix.POLICY);
        CallMix mix = new CallMix(CALLS);
        try (ForkedJvm server = ForkedJvm.start(name("http"), dir, List.of(Fixtures.javaagent("audit=audit.jsonl")),
                Fixtures.classPath(McpPair.MODERN_SDK), "fixture.ModernServer", List.of("http"))) {
            String listening = server.awaitStderr(line -> line.startsWith("FIXTURE LISTENING "));
            URI endpoint = URI.create("http://127.0.0.1:" + listening.substring("FIXTURE LISTENING ".length()).trim() + "/mcp");
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
            List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
            for (String request : mix.modernRequests()) {
                JsonNode parsed = CallMix.parse(request);
                HttpRequest post = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                        .header("Mcp-Method", "tools/call").header("Mcp-Name", parsed.path("params").path("name").asText())
                        .header("MCP-Protocol-Version", CallMix.MODERN_PROTOCOL)
                        .POST(HttpRequest.BodyPublishers.ofString(request)).build();
                inFlight.add(http.sendAsync(post, HttpResponse.BodyHandlers.ofString()));
            }
            List<String> lines = new ArrayList<>();
            for (CompletableFuture<HttpResponse<String>> response : inFlight) {
                for (JsonNode message : AbstractConcurrencyScenarios.messages(response.get().body())) {
                    lines.add(message.toString());
                }
            }
            mix.assertAnswered(CallMix.byId(lines), server.dump());
            AbstractConcurrencyScenarios.assertServerAccounted(mix, server, dir);
        }
    }

    @Test
    void answersEveryCallOfManyClientThreadsOverStdio() throws Exception {
        try (McpPair pair = McpPair.startModern(name("client"), "stdio", false, CallMix.POLICY,
                AbstractConcurrencyScenarios.BURST_CLIENT_POLICY, "", "audit=audit.jsonl")) {
            AbstractConcurrencyScenarios.assertClientBurst(pair, name("client"));
        }
    }
}
