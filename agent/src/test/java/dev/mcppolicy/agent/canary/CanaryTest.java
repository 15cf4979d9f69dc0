package dev.mcppolicy.agent.canary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.HookedTypes;
import dev.mcppolicy.agent.Stderr;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.instrumentation.HookTransformer;
import dev.mcppolicy.agent.status.AgentStatus;
import dev.mcppolicy.agent.status.StartupSummary;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The canary without an agent: with no transformer installed the handler runs unhooked and the canary
 * says so loudly. (That it passes with the real agent is asserted in every forked-JVM scenario.)
 */
class CanaryTest {
    @AfterEach
    void uninstall() {
        PolicyBridge.install(null);
    }

    @Test
    void saysLoudlyWhenTheHooksDoNotFire() {
        StartupSummary summary = new StartupSummary();
        String err = stderrOf(() -> Canary.check(summary));
        assertThat(err).contains("[mcp-policy] ERROR canary: the hooks did not fire (" + CanaryTarget.UNHOOKED
                + "); MCP tool calls are NOT policed");
        assertThat(summary.status().canary())
                .isEqualTo(new AgentStatus.CanaryResult(AgentStatus.CanaryResult.Outcome.HOOKS_DID_NOT_FIRE, CanaryTarget.UNHOOKED));
    }

    @Test
    void theCanaryShapeIsWovenByItsInstrumentation() throws Exception {
        HookTransformer transformer = new HookTransformer(List.of(Canary.instrumentation()), new StartupSummary());
        byte[] original;
        try (var in = Canary.class.getClassLoader().getResourceAsStream(HookedTypes.CANARY + ".class")) {
            original = in.readAllBytes();
        }
        String err = stderrOf(() -> {
            byte[] woven = transformer.transform(null, null, HookedTypes.CANARY, null, null, original);
            assertThat(woven).isNotNull();
        });
        assertThat(err).as("the canary is not announced as an SDK class").isEmpty();
    }

    private static String stderrOf(Runnable action) {
        return Stderr.of(action);
    }
}
