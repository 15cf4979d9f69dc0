package dev.mcppolicy.it;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Many calls in flight at once on the Kotlin MCP SDK (issue 30), as {@link AbstractConcurrencyScenarios} proves them on
 * the Java SDK: {@value AbstractConcurrencyScenarios#CALLS} pipelined {@code tools/call} requests to the Kotlin server
 * over stdio, the same as concurrent POSTs on one streamable HTTP session, and 16 threads of one Kotlin client: every
 * request answered exactly once, exactly as many admitted as the limit allows, one decision line and one audit record
 * per call.
 */
class KotlinConcurrencyIT {
    private static final int CALLS = AbstractConcurrencyScenarios.CALLS;

    private String name(String scenario) {
        return getClass().getSimpleName() + "-" + scenario;
    }

    @Test
    void answersEveryPipelinedCallExactlyOnceOverStdio() throws Exception {
        Path dir = Fixtures.workDir(name("stdio"));
        Files.writeString(dir.resolve("mcp-policy.json"), CallMix.POLICY);
        CallMix mix = new CallMix(CALLS);
        try (ForkedJvm server = StdioRpc.start(name("stdio"), McpPair.KOTLIN, dir, List.of(), "audit=audit.jsonl")) {
            StdioRpc.initialize(server);
            AbstractConcurrencyScenarios.pipelineOverStdio(server, dir, mix, mix.requests());
        }
    }

    @Test
    void answersEveryConcurrentCallExactlyOnceOverStreamableHttp() throws Exception {
        Path dir = Fixtures.workDir(name("streamable"));
        Files.writeString(dir.resolve("mcp-policy.json"), CallMix.POLICY);
        try (ForkedJvm server = ForkedJvm.start(name("streamable"), dir, List.of(Fixtures.javaagent("audit=audit.jsonl")),
                Fixtures.kotlinClassPath(), "fixture.kotlin.KotlinServerKt", List.of("streamable"))) {
            String listening = server.awaitStderr(line -> line.startsWith("FIXTURE LISTENING "));
            URI endpoint = URI.create("http://127.0.0.1:" + listening.substring("FIXTURE LISTENING ".length()).trim() + "/mcp");
            AbstractConcurrencyScenarios.pipelineOverStreamableHttp(server, endpoint, dir, new CallMix(CALLS));
        }
    }

    @Test
    void answersEveryCallOfManyClientThreadsOverStdio() throws Exception {
        try (McpPair pair = McpPair.startKotlin(name("client"), "stdio", CallMix.POLICY, AbstractConcurrencyScenarios.BURST_CLIENT_POLICY,
                "", "audit=audit.jsonl")) {
            AbstractConcurrencyScenarios.assertClientBurst(pair, name("client"));
        }
    }
}
