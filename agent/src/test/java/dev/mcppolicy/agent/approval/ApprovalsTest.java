package dev.mcppolicy.agent.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Held calls: each outcome, once; the bound on pending calls; the timeout; what an approver sees. */
class ApprovalsTest {
    private static final Decision HELD = new Decision(Effect.REQUIRE_APPROVAL, Effect.REQUIRE_APPROVAL, "/tools/exec", "approval required", 0);
    private static final Duration LONG = Duration.ofMinutes(5);

    /** A clock the test moves. */
    private static final class TestClock extends Clock {
        private Instant now = Instant.parse("2026-12-01T12:00:00Z");

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }

        void advance(long millis) {
            now = now.plusMillis(millis);
        }
    }

    private final TestClock clock = new TestClock();
    private final Approvals approvals = new Approvals(3, clock);

    private static ToolCall call(String command) {
        return new ToolCall(Side.SERVER, null, "exec", Map.of("command", command), "s1", "agent", null);
    }

    @Test
    void anApprovalCompletesItsCallOnceAndCannotBeReplayed() throws Exception {
        PendingCall held = approvals.hold(call("ls"), HELD, LONG, "abc", false);
        clock.advance(1500);

        assertThat(approvals.approve(held.id(), "alice", null)).isEqualTo(Approvals.Answer.DECIDED);
        Outcome outcome = held.outcome().get(5, TimeUnit.SECONDS);
        assertThat(outcome).isEqualTo(new Outcome(Outcome.Kind.APPROVED, "alice", null, 1500));
        assertThat(outcome.decision(HELD)).isEqualTo(new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/exec", null, 0));
        assertThat(approvals.approve(held.id(), "mallory", null)).as("spent").isEqualTo(Approvals.Answer.ALREADY_DECIDED);
        assertThat(approvals.deny(held.id(), "mallory", null)).isEqualTo(Approvals.Answer.ALREADY_DECIDED);
        assertThat(approvals.approve("0123456789abcdef", "alice", null)).isEqualTo(Approvals.Answer.UNKNOWN);
        assertThat(approvals.pending()).isEmpty();
    }

    @Test
    void aDenialCarriesTheApproversReasonToTheCaller() throws Exception {
        PendingCall held = approvals.hold(call("rm -rf /"), HELD, LONG, "abc", false);
        approvals.deny(held.id(), "bob", "not on prod");

        Decision decision = held.outcome().get(5, TimeUnit.SECONDS).decision(HELD);
        assertThat(decision.callerMessage("exec")).isEqualTo("Policy denied tool 'exec': approval denied by bob: not on prod [rule /tools/exec]");
    }

    @Test
    void noAnswerWithinTheTimeoutDeniesTheCall() throws Exception {
        PendingCall held = approvals.hold(call("ls"), HELD, Duration.ofMillis(100), "abc", false);

        Outcome outcome = held.outcome().get(10, TimeUnit.SECONDS);
        assertThat(outcome.kind()).isEqualTo(Outcome.Kind.TIMED_OUT);
        assertThat(outcome.reason()).isEqualTo("approval timed out after 100ms");
        assertThat(approvals.approve(held.id(), "alice", null)).as("too late").isEqualTo(Approvals.Answer.ALREADY_DECIDED);
        assertThat(Approvals.words(Duration.ofMinutes(5))).isEqualTo("5m");
        assertThat(Approvals.words(Duration.ofSeconds(90))).isEqualTo("90s");
    }

    @Test
    void atMostMaxPendingAreHeldAndTheyAreListedOldestFirst() {
        PendingCall first = approvals.hold(call("a"), HELD, LONG, "abc", false);
        clock.advance(10);
        PendingCall second = approvals.hold(call("b"), HELD, LONG, "abc", false);
        clock.advance(10);
        PendingCall third = approvals.hold(call("c"), HELD, LONG, "abc", false);

        assertThat(approvals.hold(call("d"), HELD, LONG, "abc", false)).as("a fourth is refused").isNull();
        assertThat(approvals.pending()).containsExactly(first, second, third);
        approvals.cancel(second.id(), "the client cancelled the request");
        assertThat(second.outcome().join().kind()).isEqualTo(Outcome.Kind.CANCELLED);
        assertThat(approvals.pending()).containsExactly(first, third);
        assertThat(approvals.hold(call("d"), HELD, LONG, "abc", false)).isNotNull();
    }

    @Test
    void anApproverSeesArgumentValuesOnlyWhenTheyAreLogged() {
        Map<String, Object> hidden = approvals.hold(call("secret"), HELD, LONG, "abc", false).describe();
        assertThat(hidden).containsEntry("tool", "exec").containsEntry("side", "server").containsEntry("rule", "/tools/exec")
                .containsEntry("session", "s1").containsEntry("client", "agent").containsEntry("arg_keys", java.util.List.of("command"))
                .containsEntry("policy_sha256", "abc").containsKey("args_sha256").doesNotContainKey("args");
        assertThat(hidden.toString()).doesNotContain("secret");
        Map<String, Object> shown = approvals.hold(call("visible"), HELD, LONG, "abc", true).describe();
        assertThat(shown).containsEntry("args", "{\"command\":\"visible\"}");
    }
}
