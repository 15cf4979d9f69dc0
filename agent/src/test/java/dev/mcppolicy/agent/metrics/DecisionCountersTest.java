package dev.mcppolicy.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DecisionCountersTest {
    private final DecisionCounters counters = new DecisionCounters();

    @Test
    void countsByOutcomeToolAndRuleWithTheSideInTheToolsName() {
        count(Side.SERVER, "echo", Effect.ALLOW, "/tools/echo");
        count(Side.SERVER, "echo", Effect.ALLOW, "/tools/echo");
        count(Side.CLIENT, "echo", Effect.DENY, "(default)");
        count(Side.CLIENT, "other", Effect.DENY, "(default)");

        assertThat(counters.allowed()).isEqualTo(2);
        assertThat(counters.denied()).isEqualTo(2);
        assertThat(counters.byTool()).containsExactly(Map.entry("client echo", 1L), Map.entry("client other", 1L), Map.entry("server echo", 2L));
        assertThat(counters.byRule()).containsExactly(Map.entry("(default)", 2L), Map.entry("/tools/echo", 2L));
    }

    @Test
    void toolsPastTheCapCountUnderOneOtherWhateverTheirSide() {
        for (int i = 0; i < DecisionCounters.MOST_NAMES; i++) {
            count(i % 2 == 0 ? Side.SERVER : Side.CLIENT, "t" + i, Effect.ALLOW, "/tools/t");
        }
        count(Side.SERVER, "late-server-tool", Effect.ALLOW, "/tools/t");
        count(Side.CLIENT, "late-client-tool", Effect.ALLOW, "/tools/t");
        count(Side.SERVER, "t0", Effect.ALLOW, "/tools/t");

        Map<String, Long> byTool = counters.byTool();
        assertThat(byTool).hasSize(DecisionCounters.MOST_NAMES + 1).containsEntry(DecisionCounters.OTHER, 2L)
                .containsEntry("server t0", 2L).doesNotContainKeys("server late-server-tool", "client late-client-tool");
    }

    private void count(Side side, String tool, Effect effect, String rule) {
        counters.count(new ToolCall(side, null, tool, Map.of(), "s", "c", null), new Decision(effect, effect, rule, null, 0));
    }
}
