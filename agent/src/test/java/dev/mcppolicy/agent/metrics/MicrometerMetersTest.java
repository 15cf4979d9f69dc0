package dev.mcppolicy.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.Stderr;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The meters on a real Micrometer global registry, found through the deciding SDK's class loader. */
class MicrometerMetersTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MicrometerMeters meters = new MicrometerMeters();
    private final ClassLoader app = getClass().getClassLoader();

    @BeforeEach
    void addRegistry() {
        Metrics.globalRegistry.add(registry);
    }

    @AfterEach
    void removeRegistry() {
        Metrics.globalRegistry.remove(registry);
        Metrics.globalRegistry.clear();
    }

    private static ToolCall call(String tool) {
        return new ToolCall(Side.SERVER, null, tool, Map.of(), "s", "c", null);
    }

    @Test
    void eachDecisionIsCountedAndTimedUnderItsToolDecisionRuleAndSide() {
        String bound = Stderr.of(() -> {
            meters.record(call("echo"), new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/echo", null, 0), 12, app);
            meters.record(call("echo"), new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/echo", null, 0), 30, app);
            meters.record(call("rm"), new Decision(Effect.DENY, Effect.DENY, "/tools/rm", "no", 0), 5, app);
        });
        assertThat(bound).contains("metrics: Micrometer found");

        Counter allowed = registry.get("mcp.policy.decisions").tags("tool", "echo", "decision", "ALLOW", "rule", "/tools/echo",
                "side", "server").counter();
        assertThat(allowed.count()).isEqualTo(2.0);
        assertThat(registry.get("mcp.policy.decisions").tags("tool", "rm", "decision", "DENY").counter().count()).isEqualTo(1.0);
        Timer timer = registry.get("mcp.policy.decision").tags("tool", "echo").timer();
        assertThat(timer.count()).isEqualTo(2);
        assertThat(timer.totalTime(TimeUnit.MICROSECONDS)).isEqualTo(42.0);
    }

    @Test
    void toolNamesAreBoundedAndTheRestAreTaggedOther() {
        for (int i = 0; i < MicrometerMeters.MOST_OTHER_TOOLS + 50; i++) {
            meters.record(call("random-" + i), new Decision(Effect.DENY, Effect.DENY, Decision.DEFAULT_RULE, "default deny", 0), 1, app);
        }
        meters.record(call("named-by-policy"), new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/named-by-policy", null, 0), 1, app);

        long toolTags = registry.get("mcp.policy.decisions").counters().stream().map(c -> c.getId().getTag("tool")).distinct().count();
        assertThat(toolTags).as("100 other names, 'other', and the policy's own").isEqualTo(MicrometerMeters.MOST_OTHER_TOOLS + 2);
        assertThat(registry.get("mcp.policy.decisions").tags("tool", "other").counter().count()).isEqualTo(50.0);
        assertThat(registry.get("mcp.policy.decisions").tags("tool", "named-by-policy").counter().count()).isEqualTo(1.0);
    }

    @Test
    void anAppWithoutMicrometerPaysOneLookupAndGetsNothing() throws Exception {
        try (URLClassLoader bare = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader())) {
            String out = Stderr.of(() -> {
                meters.record(call("echo"), new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/echo", null, 0), 1, bare);
                meters.record(call("echo"), new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/echo", null, 0), 1, bare);
            });
            assertThat(out).isEmpty();
        }
        assertThat(registry.getMeters()).isEmpty();
    }
}
