package dev.mcppolicy.agent.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentConfigTest {
    private static AgentConfig.Lookup of(Map<String, String> values) {
        return values::get;
    }

    @Test
    void agentArgumentsBeatSystemPropertiesWhichBeatTheEnvironment() {
        AgentConfig config = AgentConfig.resolve("log=off",
                of(Map.of("mcppolicy.log", "stderr", "mcppolicy.on_error", "allow")),
                of(Map.of("MCPPOLICY_LOG", "app", "MCPPOLICY_ON_ERROR", "deny", "MCPPOLICY_AUDIT", "audit.jsonl")));
        assertThat(config.log()).isEqualTo(AgentConfig.LogTarget.OFF);
        assertThat(config.onError()).isEqualTo("allow");
        assertThat(config.audit()).isEqualTo("audit.jsonl");
        assertThat(config.sources()).containsEntry("log", "agent argument").containsEntry("on_error", "-Dmcppolicy.on_error")
                .containsEntry("audit", "MCPPOLICY_AUDIT");
    }

    @Test
    void defaultsFailClosedAndLogToTheApp() {
        AgentConfig config = AgentConfig.resolve(null, of(Map.of()), of(Map.of()));
        assertThat(config.onError()).isEqualTo("deny");
        assertThat(config.failOpen()).isFalse();
        assertThat(config.log()).isEqualTo(AgentConfig.LogTarget.APP);
        assertThat(config.audit()).isNull();
        assertThat(config.problems()).isEmpty();
    }

    @Test
    void environmentNamesUseUnderscoresForDotsAndDashes() {
        assertThat(AgentConfig.envName("on_error")).isEqualTo("MCPPOLICY_ON_ERROR");
        assertThat(AgentConfig.envName("log-arguments")).isEqualTo("MCPPOLICY_LOG_ARGUMENTS");
    }

    @Test
    void reportsUnknownArgumentsAndBadValuesWithoutGuessingOpen() {
        AgentConfig config = AgentConfig.resolve("polcy=x.json,on_error=maybe", of(Map.of()), of(Map.of()));
        assertThat(config.problems()).hasSize(2);
        assertThat(config.problems().get(0)).contains("unknown agent argument 'polcy'");
        assertThat(config.onError()).isEqualTo("deny");
    }

    @Test
    void findsThePolicyInTheWorkingDirectoryThenBesideTheMainJar(@TempDir Path dir) throws Exception {
        Path cwd = Files.createDirectories(dir.resolve("cwd"));
        Path jarDir = Files.createDirectories(dir.resolve("app"));
        AgentConfig config = AgentConfig.resolve("", of(Map.of()), of(Map.of()));
        assertThat(config.policyPath(cwd, jarDir)).isNull();
        Files.writeString(jarDir.resolve("mcp-policy.yaml"), "version: '1'");
        assertThat(config.policyPath(cwd, jarDir)).isEqualTo(jarDir.resolve("mcp-policy.yaml"));
        Files.writeString(cwd.resolve("mcp-policy.json"), "{}");
        assertThat(config.policyPath(cwd, jarDir)).isEqualTo(cwd.resolve("mcp-policy.json"));
        assertThat(AgentConfig.resolve("policy=other.json", of(Map.of()), of(Map.of())).policyPath(cwd, jarDir))
                .isEqualTo(cwd.resolve("other.json"));
    }
}
