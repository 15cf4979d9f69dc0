package dev.mcppolicy.demo.peers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.demo.conformance.ConformanceRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The third-party conformance suite ({@code @modelcontextprotocol/conformance}, server mode) against the
 * conformance fixture twice: without the agent, and under the real agent with an allow-all policy. An
 * agent that allows everything must be invisible to a client: the same scenarios pass.
 */
class ConformanceWithAgentIT {
    private static final String ALLOW_ALL = "{\"version\":\"1\",\"default\":\"allow\"}\n";

    @Test
    void theSuitePassesTheSameScenariosWithTheAgentAsWithout() throws Exception {
        Path policy = Peers.workDir("conformance").resolve("allow-all.json");
        Files.writeString(policy, ALLOW_ALL, StandardCharsets.UTF_8);

        ConformanceRun.Results without = ConformanceRun.run("peers-without-agent", List.of());
        ConformanceRun.Results with = ConformanceRun.run("peers-with-agent", List.of(Peers.javaagent(policy)));

        assertThat(without.passed()).as("scenarios run without the agent, in %s", without.outputDir())
                .hasSizeGreaterThanOrEqualTo(30);
        assertThat(with.passed()).as("scenario -> passed under the agent (%s) vs without it (%s)",
                with.outputDir(), without.outputDir()).isEqualTo(without.passed());

        List<String> agentFixtureLog = fixtureLog(with);
        assertThat(agentFixtureLog).as("fixture log under the agent")
                .anyMatch(line -> line.contains("[mcp-policy] instrumented io.modelcontextprotocol.server.McpAsyncServer"))
                .anyMatch(line -> line.contains("mcp-policy decision=ALLOW tool=test_simple_text side=server "))
                .noneMatch(line -> line.contains("mcp-policy decision=DENY"))
                .noneMatch(line -> line.contains("advice error") || line.contains("NOT instrumented"));
        assertThat(fixtureLog(without)).as("fixture log without the agent")
                .noneMatch(line -> line.contains("mcp-policy"));
    }

    private static List<String> fixtureLog(ConformanceRun.Results results) throws IOException {
        return Files.readAllLines(results.outputDir().resolve("fixture-stderr.txt"), StandardCharsets.UTF_8);
    }
}
