package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Many calls in flight at once (issue 8): every request answered exactly once, exactly as many
 * admitted as a limit allows, each handler run exactly as often as allowed, one decision line and one
 * audit record per call. The server side is driven by a pipelining client (raw JSON-RPC written without
 * waiting for answers), the client side by many threads calling one {@code McpSyncClient}. Subclasses
 * name the SDK version; those with streamable HTTP add {@link #serverOverStreamableHttp()} as a test.
 */
abstract class AbstractConcurrencyScenarios {
    static final int CALLS = 200;
    /** No answer for this long after the last line the server wrote: what will ever come has come. */
    static final Duration QUIET = Duration.ofSeconds(10);
    static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"%s\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"pipelining-client\",\"version\":\"1.0\"}}}";
    static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    abstract String sdkVersion();

    /**
     * Added to both agents' options: {@code -Dit.concurrency.agent=serialize_stdio=false} measures the
     * SDK's lost sends with the agent's fix turned off (README, Reliability).
     */
    static final String EXTRA_OPTIONS = System.getProperty("it.concurrency.agent", "");

    static String options(String options) {
        return EXTRA_OPTIONS.isEmpty() ? options : options.isEmpty() ? EXTRA_OPTIONS : options + "," + EXTRA_OPTIONS;
    }

    private static String serverAgentOptions() {
        return options("audit=audit.jsonl");
    }

    private String name(String scenario) {
        return getClass().getSimpleName() + "-" + scenario;
    }

    @Test
    void answersEveryPipelinedCallExactlyOnceOverStdio() throws Exception {
        Path dir = Fixtures.workDir(name("stdio"));
        Files.writeString(dir.resolve("mcp-policy.json"), CallMix.POLICY);
        CallMix mix = new CallMix(CALLS);
        try (ForkedJvm server = ForkedJvm.start(name("stdio"), dir, List.of(Fixtures.javaagent(serverAgentOptions())),
                Fixtures.classPath(sdkVersion()), "fixture.FixtureServer", List.of("stdio"))) {
            server.send(INIT.formatted("2024-11-05"));
            server.awaitStdout(0, line -> line.contains("\"id\":\"init\""));
            server.send(INITIALIZED);
            long start = System.nanoTime();
            int answered = pipelineOverStdio(server, dir, mix, mix.requests());
            report("stdio", answered, start);
            Predicate<String> serialized = l -> l.startsWith("[mcp-policy] instrumented io.modelcontextprotocol.server.transport."
                    + "StdioServerTransportProvider$StdioMcpSessionTransport (mcp") && l.endsWith(" " + sdkVersion() + "): serialized stdio sends");
            if (sdkVersion().startsWith("2.1") || EXTRA_OPTIONS.contains("serialize_stdio=false")) {
                assertThat(server.stderr()).as("left as it is").noneMatch(l -> l.contains("instrumented") && l.contains("serialized stdio sends"));
            } else {
                assertThat(server.stderr()).anyMatch(serialized);
            }
        }
    }

    /** Streamable HTTP: the same mix, all {@value #CALLS} POSTs in flight at once on one session. */
    void serverOverStreamableHttp() throws Exception {
        Path dir = Fixtures.workDir(name("streamable"));
        Files.writeString(dir.resolve("mcp-policy.json"), CallMix.POLICY);
        CallMix mix = new CallMix(CALLS);
        try (ForkedJvm server = ForkedJvm.start(name("streamable"), dir, List.of(Fixtures.javaagent(serverAgentOptions())),
                Fixtures.classPath(sdkVersion()), "fixture.FixtureServer", List.of("streamable"))) {
            String listening = server.awaitStderr(line -> line.startsWith("FIXTURE LISTENING "));
            URI endpoint = URI.create("http://127.0.0.1:" + listening.substring("FIXTURE LISTENING ".length()).trim() + "/mcp");
            long start = System.nanoTime();
            int answered = pipelineOverStreamableHttp(server, endpoint, dir, mix);
            report("streamable HTTP", answered, start);
        }
    }

    /**
     * {@code requests} (the mix, as the server's protocol has them) written at once to a stdio server, after its
     * {@code initialize} if it has one: every call answered once and accounted for; returns how many answers came.
     */
    static int pipelineOverStdio(ForkedJvm server, Path dir, CallMix mix, List<String> requests) throws Exception {
        server.sendAll(requests);
        List<String> lines = server.awaitStdoutCount(line -> line.contains("\"id\":\"c"), mix.size(), QUIET);
        mix.assertAnswered(CallMix.byId(lines), server.dump());
        assertServerAccounted(mix, server, dir);
        return lines.size();
    }

    /**
     * The mix as concurrent POSTs on one streamable HTTP session of the server at {@code endpoint} (after its
     * {@code initialize}), all in flight at once: every call answered once and accounted for; returns how many answers came.
     */
    static int pipelineOverStreamableHttp(ForkedJvm server, URI endpoint, Path dir, CallMix mix) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> init = http.send(post(endpoint, null, null, INIT.formatted("2025-03-26")),
                HttpResponse.BodyHandlers.ofString());
        String session = init.headers().firstValue("mcp-session-id").orElseThrow(
                () -> new AssertionError("no session id: " + init + " " + init.body() + "\n" + server.dump()));
        String protocol = messages(init.body()).get(0).path("result").path("protocolVersion").asText();
        http.send(post(endpoint, session, protocol, INITIALIZED), HttpResponse.BodyHandlers.ofString());

        List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
        for (String request : mix.requests()) {
            inFlight.add(http.sendAsync(post(endpoint, session, protocol, request), HttpResponse.BodyHandlers.ofString()));
        }
        List<String> lines = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> response : inFlight) {
            for (JsonNode message : messages(response.get().body())) {
                lines.add(message.toString());
            }
        }
        mix.assertAnswered(CallMix.byId(lines), server.dump());
        assertServerAccounted(mix, server, dir);
        return lines.size();
    }

    /** The load held, for README's Reliability section (in the failsafe report of each run). */
    private void report(String transport, int answered, long startNanos) {
        long millis = Math.max(1, (System.nanoTime() - startNanos) / 1_000_000);
        System.out.printf("[reliability] SDK %s %s: %d calls in flight at once, %d answered in %d ms (%d calls/s)%n",
                sdkVersion(), transport, CALLS, answered, millis, answered * 1000L / millis);
    }

    /** The client's policy for {@link #assertClientBurst}: it denies run_command with rm -rf (never sent). */
    static final String BURST_CLIENT_POLICY = """
            { "version": "1", "default": "allow",
              "tools": { "run_command": { "deny_if": [ { "path": "command", "op": "contains", "value": "rm -rf" } ] } } }
            """;

    @Test
    void answersEveryCallOfManyClientThreadsOverStdio() throws Exception {
        try (McpPair pair = McpPair.start(name("client"), sdkVersion(), "stdio", CallMix.POLICY, BURST_CLIENT_POLICY,
                options(""), options("audit=audit.jsonl"))) {
            assertClientBurst(pair, name("client"));
        }
    }

    /**
     * {@value #CALLS} calls from 16 threads of one client whose policy is {@link #BURST_CLIENT_POLICY} and whose
     * server's is {@link CallMix#POLICY} (the client JVM with {@code audit=audit.jsonl}): every call answered once,
     * as its rule says; the client decided all, the server saw only those the client sent.
     */
    static void assertClientBurst(McpPair pair, String name) throws Exception {
        String burst = pair.command("burst 16 60 echo {\"text\":\"e%d\"};50 run_command {\"command\":\"rm -rf /%d\"};"
                + "60 limited {};30 run_command {\"command\":\"ls %d\"}");
        assertThat(burst).startsWith("BURST ");
        String[] results = burst.substring("BURST ".length()).split("\t");
        assertThat(results).as(pair.dump()).hasSize(CALLS);
        assertThat(results).as(pair.dump()).noneMatch(result -> result.startsWith("ERROR"));
        assertThat(results).filteredOn(r -> r.startsWith("RESULT isError=false text=echo: e")).hasSize(60);
        assertThat(results).filteredOn(r -> r.startsWith("RESULT isError=true text=Policy denied tool 'run_command': denied by condition")
                && r.endsWith("[rule /tools/run_command/deny_if/0]")).hasSize(50);
        assertThat(results).filteredOn("RESULT isError=false text=limited done"::equals).hasSize(CallMix.LIMIT);
        assertThat(results).filteredOn(r -> r.startsWith("RESULT isError=true text=Policy denied tool 'limited': rate limit exceeded"))
                .hasSize(60 - CallMix.LIMIT);
        assertThat(results).filteredOn("RESULT isError=false text=run_command done"::equals).hasSize(30);

        // the client decided all 200; the server saw only the 150 the client sent
        Path clientAudit = Fixtures.workPath(name).resolve("client/audit.jsonl");
        assertThat(AuditFiles.awaitLines(clientAudit, CALLS)).hasSize(CALLS);
        pair.sync();
        List<String> serverLog = pair.serverLog();
        assertThat(serverLog).filteredOn(l -> l.startsWith("HANDLER RAN run_command") && l.contains("rm -rf")).isEmpty();
        assertThat(serverLog).filteredOn(l -> l.startsWith("HANDLER RAN limited")).hasSize(CallMix.LIMIT);
        assertThat(serverLog).filteredOn(l -> l.startsWith("HANDLER RAN run_command")).hasSize(30);
        assertThat(pair.clientLog()).filteredOn(l -> l.contains("mcp-policy decision=")).hasSize(CALLS + 1);
        assertThat(pair.serverLog()).noneMatch(l -> l.contains("advice error") || l.contains("Failed to enqueue"));
        assertThat(pair.clientLog()).noneMatch(l -> l.contains("advice error") || l.contains("Failed to enqueue"));
    }

    /** Handlers run exactly as often as allowed; one decision line and one audit record per call; no agent error. */
    static void assertServerAccounted(CallMix mix, ForkedJvm server, Path dir) throws Exception {
        long handled = mix.count(CallMix.Kind.ECHO) + mix.count(CallMix.Kind.LS) + CallMix.LIMIT;
        List<String> ran = server.awaitStderrCount(l -> l.startsWith("HANDLER RAN "), (int) handled, QUIET);
        assertThat(ran).as(server.dump()).hasSize((int) handled);
        assertThat(ran).filteredOn(l -> l.startsWith("HANDLER RAN echo ")).hasSize((int) mix.count(CallMix.Kind.ECHO));
        assertThat(ran).filteredOn(l -> l.startsWith("HANDLER RAN limited ")).hasSize(CallMix.LIMIT);
        assertThat(ran).filteredOn(l -> l.startsWith("HANDLER RAN run_command ")).hasSize((int) mix.count(CallMix.Kind.LS));
        assertThat(ran).as("smuggled amounts never reach the handler").noneMatch(l -> l.startsWith("HANDLER RAN transfer "));
        Predicate<String> decision = l -> l.contains("mcp-policy decision=");
        assertThat(server.awaitStderrCount(decision, mix.size(), QUIET)).as(server.dump()).hasSize(mix.size());
        List<String> audit = AuditFiles.awaitLines(dir.resolve("audit.jsonl"), mix.size());
        assertThat(audit).hasSize(mix.size());
        assertThat(audit).allMatch(record -> CallMix.parse(record) != null);
        assertThat(audit).filteredOn(r -> r.contains("\"tool\":\"limited\"") && r.contains("\"decision\":\"ALLOW\"")).hasSize(CallMix.LIMIT);
        assertThat(server.stderr()).noneMatch(l -> l.contains("advice error") || l.contains("Failed to enqueue"));
    }

    private static HttpRequest post(URI endpoint, String session, String protocol, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("mcp-session-id", session);
        }
        if (protocol != null) {
            request.header("mcp-protocol-version", protocol);
        }
        return request.build();
    }

    /** The JSON-RPC messages of a response body: plain JSON, or the {@code data:} lines of an SSE stream. */
    static List<JsonNode> messages(String body) {
        List<JsonNode> messages = new ArrayList<>();
        for (String line : body.split("\n")) {
            String json = line.startsWith("data:") ? line.substring(5).trim() : line.trim();
            JsonNode message = CallMix.parse(json);
            if (message != null) {
                messages.add(message);
            }
        }
        return messages;
    }
}
