package dev.mcppolicy.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The policy in force for one call: approvals, fail-open errors, and what a caller may read of an agent bug. */
class PolicySnapshotTest {
    private static ToolCall call(String tool) {
        return new ToolCall(Side.SERVER, null, tool, Map.of(), "s", "c", null);
    }

    @Test
    void anApprovalIsDeniedUntilThereIsAChannelButNotInMonitorMode() {
        String policy = "{\"version\": \"1\", %s \"tools\": {\"t\": {\"action\": \"require_approval\"}}}";
        Decision enforced = PolicySnapshots.of(policy.formatted(""), false).decide(call("t"));
        assertThat(enforced).isEqualTo(new Decision(Effect.DENY, Effect.DENY, "/tools/t", PolicySnapshot.APPROVAL_UNAVAILABLE, 0));

        Decision monitored = PolicySnapshots.of(policy.formatted("\"mode\": \"monitor\","), false).decide(call("t"));
        assertThat(monitored.effect()).isEqualTo(Effect.ALLOW);
        assertThat(monitored.wouldBe()).isEqualTo(Effect.REQUIRE_APPROVAL);
    }

    @Test
    void anUnavailablePolicyFailingOpenIsLoggedAsAnErrorNotAsMonitorMode() {
        Decision open = PolicySnapshot.unavailable("no policy file", null, null, true).decide(call("t"));
        assertThat(open.effect()).isEqualTo(Effect.ALLOW);
        assertThat(open.isMonitored()).isFalse();
        assertThat(open.isError()).isTrue();
        assertThat(open.isWarning()).isTrue();
        assertThat(open.reason()).isEqualTo("policy unavailable: no policy file");

        Decision closed = PolicySnapshot.unavailable("no policy file", null, null, false).decide(call("t"));
        assertThat(closed).isEqualTo(Decision.error("policy unavailable: no policy file"));
    }

    @Test
    void anInternalErrorTellsTheCallerAnIdAndNoExceptionText() {
        PolicySnapshot snapshot = PolicySnapshots.of("{\"version\": \"1\"}", false);
        Decision decision = snapshot.internalError("test", "t", new IllegalStateException("secret internals at /srv/app"));

        assertThat(decision.effect()).isEqualTo(Effect.DENY);
        assertThat(decision.reason()).matches("internal error \\(id [0-9a-f]{8}\\); the app's log has the details");
        assertThat(decision.callerMessage("t")).doesNotContain("secret", "IllegalStateException", "/srv/app");
        assertThat(PolicySnapshots.of("{\"version\": \"1\"}", true).internalError("test", "t", new IllegalStateException()).effect())
                .isEqualTo(Effect.ALLOW);
    }
}
