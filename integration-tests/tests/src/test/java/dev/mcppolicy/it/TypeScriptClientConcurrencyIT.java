package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The TypeScript MCP SDK's client (a third-party peer, from the directory {@code .ci/install-peers.sh}
 * fills) keeps {@value AbstractConcurrencyScenarios#CALLS} calls in flight at once against a real stdio
 * server under the agent, as the issue that found the lost answers did: every call answered exactly
 * once, each as its kind must be, on the oldest, middle and newest SDK, and on the Quarkus MCP server and the Kotlin MCP SDK's server.
 */
class TypeScriptClientConcurrencyIT {
    @ParameterizedTest
    @ValueSource(strings = {"0.10.0", "1.1.5", "2.0.0", "2.1.0", StdioRpc.QUARKUS_STDIO, McpPair.KOTLIN})
    void answersEveryCallOfAPipeliningTypeScriptClient(String sdkVersion) throws Exception {
        Path sdk = TypeScriptPeers.sdk();
        Path dir = Fixtures.workDir("TypeScriptClientConcurrencyIT-" + sdkVersion);
        Files.writeString(dir.resolve("mcp-policy.json"), CallMix.POLICY);
        CallMix mix = new CallMix(AbstractConcurrencyScenarios.CALLS);
        Path calls = Files.writeString(dir.resolve("calls.json"), mix.callsJson());
        Path script = Path.of(TypeScriptClientConcurrencyIT.class.getResource("/ts-pipelining-client.mjs").toURI());
        List<String> command = new java.util.ArrayList<>(List.of("node", script.toString(), sdk.toString(), calls.toString(), "--",
                ForkedJvm.javaExecutable(), Fixtures.javaagent(AbstractConcurrencyScenarios.options("audit=audit.jsonl"))));
        if (McpPair.KOTLIN.equals(sdkVersion)) {
            command.addAll(List.of("-cp", Fixtures.kotlinClassPath(), "fixture.kotlin.KotlinServerKt", "stdio"));
        } else if (sdkVersion.startsWith(StdioRpc.QUARKUS)) {
            command.addAll(List.of("-jar", Fixtures.quarkusApp(sdkVersion.substring(StdioRpc.QUARKUS.length())).toString()));
        } else {
            command.addAll(List.of("-cp", Fixtures.classPath(sdkVersion), "fixture.FixtureServer", "stdio"));
        }
        try (ForkedJvm client = ForkedJvm.startProcess("ts-client-" + sdkVersion, dir, command)) {
            client.awaitStdout(0, line -> line.startsWith("{\"done\":"));
            mix.assertAnswered(CallMix.byId(client.stdout()), client.dump());
            List<String> decisions = client.awaitStderrCount(l -> l.contains("mcp-policy decision="), mix.size(), Duration.ofSeconds(10));
            assertThat(decisions).as(client.dump()).hasSize(mix.size());
            assertThat(AuditFiles.awaitLines(dir.resolve("audit.jsonl"), mix.size())).hasSize(mix.size());
            assertThat(client.stderr()).noneMatch(l -> l.contains("advice error") || l.contains("Failed to enqueue"));
        }
    }
}
