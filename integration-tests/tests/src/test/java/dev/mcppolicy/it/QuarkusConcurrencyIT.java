package dev.mcppolicy.it;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Many calls in flight at once on the Quarkus MCP server (issue 30), as {@link AbstractConcurrencyScenarios} proves
 * them on the SDK: {@value AbstractConcurrencyScenarios#CALLS} pipelined {@code tools/call} requests over stdio, the
 * same as concurrent POSTs on one streamable HTTP session (on the oldest and the newest extension served): every request
 * answered exactly once, exactly as many admitted as the limit allows, each handler run as often as allowed, one
 * decision line and one audit record per call.
 */
class QuarkusConcurrencyIT {
    private static final int CALLS = AbstractConcurrencyScenarios.CALLS;

    private String name(String scenario) {
        return getClass().getSimpleName() + "-" + scenario;
    }

    @Test
    void answersEveryPipelinedCallExactlyOnceOverStdio() throws Exception {
        Path dir = Fixtures.workDir(name("stdio"));
        Files.writeString(dir.resolve("mcp-policy.json"), CallMix.POLICY);
        CallMix mix = new CallMix(CALLS);
        try (ForkedJvm server = StdioRpc.start(name("stdio"), StdioRpc.QUARKUS_STDIO, dir, List.of(), "audit=audit.jsonl")) {
            StdioRpc.initialize(server);
            AbstractConcurrencyScenarios.pipelineOverStdio(server, dir, mix, mix.requests());
        }
    }

    @Test
    void answersEveryConcurrentCallExactlyOnceOverStreamableHttpOn1101() throws Exception {
        overStreamableHttp("1.10.1");
    }

    @Test
    void answersEveryConcurrentCallExactlyOnceOverStreamableHttpOn1130() throws Exception {
        overStreamableHttp("1.13.0");
    }

    private void overStreamableHttp(String version) throws Exception {
        Path dir = Fixtures.workDir(name("streamable-" + version));
        Files.writeString(dir.resolve("mcp-policy.json"), CallMix.POLICY);
        int port = Fixtures.freePort();
        try (ForkedJvm server = ForkedJvm.startProcess(name("streamable-" + version), dir, List.of(ForkedJvm.javaExecutable(),
                Fixtures.javaagent("audit=audit.jsonl"), "-Dquarkus.mcp.server.stdio.enabled=false", "-Dquarkus.http.port=" + port,
                "-jar", Fixtures.quarkusApp(version).toString()))) {
            server.awaitStderr(line -> line.startsWith("FIXTURE LISTENING "));
            AbstractConcurrencyScenarios.pipelineOverStreamableHttp(server, URI.create("http://127.0.0.1:" + port + "/mcp"), dir,
                    new CallMix(CALLS));
        }
    }
}
