package dev.mcppolicy.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.status.AgentStatus;
import dev.mcppolicy.agent.status.StartupSummary;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The hooks are installed once: a failed install is reported once, not again at every later MCP class. */
class LazyInstallerTest {
    @Test
    void aFailedInstallIsTriedOnceAndReportedOnce() {
        AtomicInteger starts = new AtomicInteger();
        Thread failingLoader = new Thread("test-policy-loader") {
            @Override
            public synchronized void start() {
                starts.incrementAndGet();
                throw new IllegalStateException("cannot start the policy loader");
            }
        };
        StartupSummary summary = new StartupSummary();
        LazyInstaller installer = new LazyInstaller(PolicyHolder.loading(false), () -> new DecisionLog(List.of(), false), failingLoader,
                true, summary, null, false);

        String err = stderrOf(() -> {
            for (String type : List.of("io/modelcontextprotocol/spec/McpSchema", "io/modelcontextprotocol/server/McpAsyncServer",
                    "io/modelcontextprotocol/client/McpAsyncClient")) {
                assertThat(installer.transform(null, null, type, null, null, new byte[0])).as(type).isNull();
            }
            assertThat(installer.activate()).isNull();
        });

        assertThat(starts).hasValue(1);
        assertThat(err.lines().filter(line -> line.startsWith("[mcp-policy] ERROR could not install the MCP hooks")))
                .containsExactly("[mcp-policy] ERROR could not install the MCP hooks; MCP tool calls are NOT policed:"
                        + " java.lang.IllegalStateException: cannot start the policy loader");
        assertThat(err.lines().filter(line -> line.startsWith("java.lang.IllegalStateException"))).as("one stack trace").hasSize(1);
        assertThat(summary.status().hooks())
                .isEqualTo(new AgentStatus.Hooks(AgentStatus.Hooks.State.FAILED,
                        "java.lang.IllegalStateException: cannot start the policy loader"));
    }

    @Test
    void classesOutsideTheSdkNeverWakeItUp() {
        AtomicInteger starts = new AtomicInteger();
        Thread loader = new Thread("test-policy-loader") {
            @Override
            public synchronized void start() {
                starts.incrementAndGet();
            }
        };
        LazyInstaller installer = new LazyInstaller(PolicyHolder.loading(false), () -> new DecisionLog(List.of(), false), loader, true,
                new StartupSummary(), null, false);
        assertThat(installer.transform(null, null, "com/example/App", null, null, new byte[0])).isNull();
        assertThat(installer.transform(null, null, null, null, null, new byte[0])).isNull();
        assertThat(starts).hasValue(0);
    }

    private static String stderrOf(Runnable action) {
        return Stderr.of(action);
    }
}
