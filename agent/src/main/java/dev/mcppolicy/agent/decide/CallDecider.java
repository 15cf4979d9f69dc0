package dev.mcppolicy.agent.decide;

import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.approval.Outcome;
import dev.mcppolicy.agent.approval.PendingCall;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.sdk.Results;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.ResultJudge;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.log.ApprovalNote;
import dev.mcppolicy.policy.Approval;
import java.util.function.BooleanSupplier;

/**
 * The decision path every stack's hooks share once they have turned their stack's call into a {@link ToolCall}:
 * decide and log it once, hold it for approval when its rule says so, and answer a held call when a person (or
 * the timeout) decides. What a denial looks like is the stack's ({@link Denial}); nothing here names an MCP class.
 */
public final class CallDecider {
    private final DecisionLog log;
    private final Approvals approvals;
    private final boolean showArguments;

    /**
     * @param approvals where calls that need approval are held, or {@code null}: no approval channel is configured,
     *     and such calls are denied
     * @param showArguments whether approvers see argument values ({@code log_arguments})
     */
    public CallDecider(DecisionLog log, Approvals approvals, boolean showArguments) {
        this.log = log;
        this.approvals = approvals;
        this.showArguments = showArguments;
    }

    /**
     * A decision, the pending approval when it held the call, and, for an allowed call whose rule judges its answer
     * (SPEC §13), its {@link Judged}: the call's line is then logged when the answer is judged.
     */
    public record Decided(Decision decision, PendingCall held, Judged judged) {
        public Decided(Decision decision, PendingCall held) {
            this(decision, held, null);
        }
    }

    /** What an approved call does: runs the handler, or sends the request; the {@code Mono} to go on with. */
    @FunctionalInterface
    public interface Proceed {
        Object get() throws Throwable;
    }

    /** The stack's answer to a denied call: the §5 text as the object the hooked method returns. */
    @FunctionalInterface
    public interface Denial {
        Object of(String text) throws Throwable;
    }

    /**
     * Decides and logs one call. A call its rule says needs approval is held when a channel is configured
     * (logged {@code decision=HOLD approval_id=...}), or denied when {@code approval.max_pending} calls are
     * held already; without a channel the snapshot denies it. A rule that asks {@code via: elicitation} holds
     * the call for its client's user when {@code clientCanBeAsked} ({@code approval_via=elicitation}), else for
     * the admin channel ({@code approval_via=admin}).
     */
    public Decided decide(PolicySnapshot policy, ToolCall call, ClassLoader sdk, BooleanSupplier clientCanBeAsked) {
        return decide(policy, call, sdk, clientCanBeAsked, false);
    }

    /**
     * {@link #decide(PolicySnapshot, ToolCall, ClassLoader, BooleanSupplier)}, for a stack that judges answers
     * ({@code judgesAnswers}): an allowed call whose rule has a {@code result} comes back with its {@link Judged}, and
     * its line is logged when its answer is judged (or when it fails: {@link Judged#finish}).
     */
    public Decided decide(PolicySnapshot policy, ToolCall call, ClassLoader sdk, BooleanSupplier clientCanBeAsked, boolean judgesAnswers) {
        long start = System.nanoTime();
        Decision decision = policy.decide(call, approvals != null && approvals.hasChannel());
        ResultJudge judge = judgesAnswers && decision.effect() == Effect.ALLOW ? policy.resultJudge(call) : null;
        long took = (System.nanoTime() - start) / 1_000;
        if (judge != null) {
            return new Decided(decision, null, new Judged(log, call, decision, took, judge, sdk, false));
        }
        if (decision.effect() != Effect.REQUIRE_APPROVAL) {
            log.record(call, decision, took, sdk);
            return new Decided(decision, null);
        }
        String via = null;
        if (policy.approvalVia(decision.rule()) == Approval.Via.ELICITATION) {
            via = clientCanBeAsked.getAsBoolean() ? Approvals.ELICITATION : Approvals.ADMIN;
        }
        PendingCall held = approvals.hold(call, decision, policy.approvalTimeout(decision.rule()), policy.sha256(), showArguments, via);
        if (held == null) {
            Decision full = new Decision(Effect.DENY, Effect.DENY, decision.rule(), "too many calls awaiting approval", 0);
            log.record(call, full, took, sdk);
            return new Decided(full, null);
        }
        log.record(call, decision, took, sdk, ApprovalNote.held(held.id(), via));
        return new Decided(decision, held);
    }

    /**
     * The answer to a held call: a {@code Mono} that goes on once a person (or the timeout) decides, holding
     * no thread meanwhile. Approved: {@code proceed} (run the handler, or send the request); otherwise the
     * §5 denial. The outcome is the call's decision line. A caller that cancels gives the entry up; a call
     * given up otherwise (the client's {@code notifications/cancelled}, or its session closing) is answered
     * with nothing, as JSON-RPC asks for a cancelled request.
     *
     * @param askClient with {@code via: elicitation}, sends the client its question when the SDK subscribes
     *     (so on streamable HTTP the request's stream is open); {@code null} otherwise
     */
    public Object awaitApproval(PendingCall held, ClassLoader sdk, Runnable askClient, Proceed proceed, Denial denial)
            throws ReflectiveOperationException {
        // a copy: Reactor cancels the future it waits on when the caller cancels, and the entry's own must stay
        Object waiting = Results.monoAfter(sdk, held.outcome().thenApply(outcome -> outcome),
                outcome -> answer(held, outcome, sdk, proceed, denial, () -> Results.monoEmpty(sdk)));
        if (askClient != null) {
            Object answer = waiting;
            waiting = Results.monoDefer(sdk, () -> {
                askClient.run();
                return answer;
            });
        }
        return Results.monoOnCancel(waiting, () -> {
            Outcome cancelled = approvals.cancel(held.id(), "the caller cancelled the request");
            if (cancelled != null) {
                log.record(held.call(), cancelled.decision(held.held()), 0, sdk, cancelled.note(held.id()));
            }
        });
    }

    /**
     * The answer to a held call once a person (or the timeout, or a cancellation) decided, for a stack that waits for
     * {@link PendingCall#outcome()} its own way: logs the outcome as the call's decision line, then approved:
     * {@code proceed}; cancelled: {@code cancelled} (answer nothing); otherwise the §5 denial.
     */
    public Object answer(PendingCall held, Outcome outcome, ClassLoader sdk, Proceed proceed, Denial denial, Proceed cancelled)
            throws Throwable {
        Decision decision = outcome.decision(held.held());
        log.record(held.call(), decision, 0, sdk, outcome.note(held.id()));
        if (outcome.kind() == Outcome.Kind.CANCELLED) {
            return cancelled.get();
        }
        return decision.effect() == Effect.ALLOW ? proceed.get() : denial.of(decision.callerMessage(held.call().kind(), held.call().tool()));
    }

    /**
     * For a held call a person approved: the {@link Judged} of its answer when its rule judges answers, else {@code null}.
     * Its hold and outcome have their lines; the judge adds one only when it changes the answer.
     */
    public Judged judgedAfterApproval(PolicySnapshot policy, ToolCall call, ClassLoader sdk) {
        ResultJudge judge = policy.resultJudge(call);
        return judge == null ? null : new Judged(log, call, new Decision(Effect.ALLOW, Effect.ALLOW, judge.pointer(), null, 0), 0,
                judge, sdk, true);
    }

    /** Logs one decision made outside {@link #decide} (a call refused before its rule is asked). */
    public void record(ToolCall call, Decision decision, ClassLoader sdk) {
        log.record(call, decision, 0, sdk);
    }

    /**
     * For a held call whose answer comes with a later request (the modern protocol's {@code InputRequiredResult}): logs
     * its outcome when it is not that answer (a timeout, a cancel, the admin channel), as no one waits for it; the
     * answer logs its own.
     */
    public void recordWhenGivenUp(PendingCall held, ClassLoader sdk) {
        held.outcome().thenAccept(outcome -> {
            if (!Approvals.ELICITATION.equals(outcome.via())) {
                log.record(held.call(), outcome.decision(held.held()), 0, sdk, outcome.note(held.id()));
            }
        });
    }
}
