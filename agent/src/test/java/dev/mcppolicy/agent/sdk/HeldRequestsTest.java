package dev.mcppolicy.agent.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.approval.Outcome;
import dev.mcppolicy.agent.approval.PendingCall;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which held call a client's cancel or a closed session gives up: the request it answers, in its session
 * only, with JSON's id comparison; the SDK's messages stand in as records named as the SDK names them.
 */
class HeldRequestsTest {
    private static final Decision HELD = new Decision(Effect.REQUIRE_APPROVAL, Effect.REQUIRE_APPROVAL, "/tools/exec", "approval required", 0);

    record JSONRPCRequest(String jsonrpc, String method, Object id, Object params) {
    }

    record JSONRPCNotification(String jsonrpc, String method, Object params) {
    }

    private final Approvals approvals = new Approvals(10, Clock.systemUTC());
    private final HeldRequests requests = new HeldRequests(approvals);
    private final Object session = new Object();
    private final Object otherSession = new Object();

    /** A {@code tools/call} with request id {@code id} arrives in {@code in} and is held. */
    private PendingCall held(Object in, Object id) {
        Map<String, Object> params = Map.of("name", "exec", "arguments", Map.of("command", "ls " + id));
        requests.arriving(in, new JSONRPCRequest("2.0", "tools/call", id, params));
        PendingCall call = approvals.hold(new ToolCall(Side.SERVER, null, "exec", Map.of(), "s", "c", null), HELD,
                Duration.ofMinutes(5), "sha", false);
        requests.bind(params, call);
        return call;
    }

    private void cancel(Object in, Object requestId) {
        requests.arriving(in, new JSONRPCNotification("2.0", "notifications/cancelled", Map.of("requestId", requestId, "reason", "gave up")));
    }

    @Test
    void aCancelGivesUpTheHeldCallOfThatRequestInThatSessionOnly() {
        PendingCall call = held(session, "r1");
        cancel(otherSession, "r1");
        cancel(session, "r2");
        assertThat(call.outcome()).isNotDone();

        cancel(session, "r1");
        assertThat(call.outcome().getNow(null)).extracting(Outcome::kind, Outcome::reason)
                .containsExactly(Outcome.Kind.CANCELLED, "the client cancelled the request");
        assertThat(approvals.pending()).isEmpty();
        assertThat(approvals.approve(call.id(), "alice", null)).isEqualTo(Approvals.Answer.ALREADY_DECIDED);
    }

    @Test
    void idsCompareAsJsonDoes() {
        PendingCall call = held(session, 7);
        cancel(session, "7");
        assertThat(call.outcome()).as("the string \"7\" is another id").isNotDone();
        cancel(session, 7L);
        assertThat(call.outcome().getNow(null).kind()).isEqualTo(Outcome.Kind.CANCELLED);
    }

    @Test
    void aClosedSessionGivesUpItsHeldCallsAndNoOthers() {
        PendingCall first = held(session, 1);
        PendingCall second = held(session, 2);
        PendingCall elsewhere = held(otherSession, 1);
        requests.closed(session);
        assertThat(first.outcome().getNow(null).reason()).isEqualTo("the client closed the session");
        assertThat(second.outcome().getNow(null).kind()).isEqualTo(Outcome.Kind.CANCELLED);
        assertThat(elsewhere.outcome()).isNotDone();
        assertThat(approvals.pending()).extracting(PendingCall::id).containsExactly(elsewhere.id());
    }

    @Test
    void aCallDecidedOtherwiseIsNoLongerBoundAndOneHeldElsewhereNeverWas() {
        PendingCall approved = held(session, "a");
        assertThat(approvals.approve(approved.id(), "alice", null)).isEqualTo(Approvals.Answer.DECIDED);
        cancel(session, "a");
        assertThat(approved.outcome().getNow(null).kind()).isEqualTo(Outcome.Kind.APPROVED);

        // a call held from other params than the request handled on this thread (it arrived on another thread)
        requests.arriving(session, new JSONRPCRequest("2.0", "tools/call", "b", Map.of("name", "exec")));
        PendingCall unbound = approvals.hold(new ToolCall(Side.SERVER, null, "exec", Map.of(), "s", "c", null), HELD,
                Duration.ofMinutes(5), "sha", false);
        requests.bind(Map.of("name", "exec"), unbound);
        cancel(session, "b");
        assertThat(unbound.outcome()).isNotDone();
    }
}
