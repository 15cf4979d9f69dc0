package dev.mcppolicy.agent.decide;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.ResultJudge;
import dev.mcppolicy.engine.ToolCall;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One allowed call whose rule judges its answer (SPEC §13): the answer, once it comes, is judged before the caller
 * sees it, and the call's one decision line is logged then, with what was redacted ({@code redacted=}) or the result
 * rule's denial. A call whose answer never comes (the handler failed, the caller cancelled) is logged as it was decided
 * by {@link #finish}. What an answer is, how one is rebuilt and how a denial looks are the stack's.
 */
public final class Judged {
    private final DecisionLog log;
    private final ToolCall call;
    private final Decision decision;
    private final long tookMicros;
    private final ResultJudge judge;
    private final ClassLoader sdk;
    /** Whether the call's line is logged: at once for a call held for approval, whose hold and outcome have lines. */
    private final AtomicBoolean logged;

    Judged(DecisionLog log, ToolCall call, Decision decision, long tookMicros, ResultJudge judge, ClassLoader sdk, boolean logged) {
        this.log = log;
        this.call = call;
        this.decision = decision;
        this.tookMicros = tookMicros;
        this.judge = judge;
        this.sdk = sdk;
        this.logged = new AtomicBoolean(logged);
    }

    /** Reads a stack's answer as the judge reads it; may throw (the answer is then denied). */
    @FunctionalInterface
    public interface Reader {
        ResultJudge.Answer read(Object answer) throws Throwable;
    }

    /** The stack's answer with its texts and structured content replaced (the same object when nothing changed). */
    @FunctionalInterface
    public interface Rebuilder {
        Object rebuild(Object answer, List<String> texts, Object structured) throws Throwable;
    }

    /**
     * What the caller gets instead of {@code answer}: the answer, redacted, or the stack's {@code denial} of the §5
     * text when the result rule denies it or the answer cannot be read (fail closed). Logs the call's line unless it
     * is logged already; for a call whose line is (a held call), a line only when the judge changed the answer.
     */
    public Object answer(Object answer, Reader reader, Rebuilder rebuilder, CallDecider.Denial denial) throws Throwable {
        long start = System.nanoTime();
        ResultJudge.Verdict verdict;
        try {
            verdict = judge.judge(reader.read(answer));
        } catch (Throwable t) {
            Diagnostics.adviceError("reading the answer for " + judge.pointer(), call.kind().word() + " " + call.tool(), t);
            verdict = null;
        }
        long took = tookMicros + (System.nanoTime() - start) / 1_000;
        if (verdict == null) {
            Decision unreadable = new Decision(Effect.DENY, Effect.DENY, judge.pointer(), "result could not be read (fail closed)", 0);
            logOnce(unreadable, took, null, true);
            return denial.of(unreadable.callerMessage(call.kind(), call.tool()));
        }
        if (verdict.denied()) {
            logOnce(verdict.decision(), took, verdict.redacted(), true);
            return denial.of(verdict.decision().callerMessage(call.kind(), call.tool()));
        }
        Decision logged = verdict.decision() != null ? verdict.decision() : decision;
        boolean changed = verdict.redactedAny() || verdict.decision() != null;
        logOnce(logged, took, verdict.redacted(), changed);
        return verdict.redactedAny() ? rebuilder.rebuild(answer, verdict.texts(), verdict.structured()) : answer;
    }

    /** The call's line as it was decided, when no answer was judged (the handler failed or the caller cancelled). */
    public void finish() {
        if (logged.compareAndSet(false, true)) {
            log.record(call, decision, tookMicros, sdk);
        }
    }

    /** The call's line, unless it is logged; for a call logged already, a second line when {@code changed}. */
    private void logOnce(Decision logged, long took, String redacted, boolean changed) {
        if (this.logged.compareAndSet(false, true) || changed) {
            log.record(call, logged, took, sdk, null, redacted);
        }
    }
}
