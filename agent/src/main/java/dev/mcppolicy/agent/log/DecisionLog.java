package dev.mcppolicy.agent.log;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.metrics.DecisionCounters;
import dev.mcppolicy.agent.metrics.MicrometerMeters;
import dev.mcppolicy.agent.otel.OtelSpans;
import dev.mcppolicy.agent.config.AgentConfig.LogTarget;
import dev.mcppolicy.agent.status.StartupSummary;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.log.ApprovalNote;
import dev.mcppolicy.log.DecisionRecord;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Where each decision goes (SPEC §8): to every {@link DecisionListener}, in order. {@link #configured}
 * makes the two that {@code log} and {@code audit} ask for: the decision line, then the audit file. With
 * no listener a decision costs nothing here: no record is made.
 */
public final class DecisionLog {
    private final DecisionListener[] listeners;
    private final DecisionCounters counters;
    private final MicrometerMeters meters;
    /** Decisions on the app's traces; {@code null} with {@code otel=off}. */
    private OtelSpans spans = new OtelSpans();
    private final boolean logArguments;
    /** Whether records show a verified caller's subject as its SHA-256 ({@code log_user=hash}); set once, before any decision. */
    private boolean hashUser;
    /** Whether a listener reads the record's time ({@link DecisionListener#readsTime}): else no clock is read per decision. */
    private final boolean readsTime;

    /** @param logArguments whether the records carry argument values ({@code log_arguments}) */
    public DecisionLog(List<DecisionListener> listeners, boolean logArguments) {
        this(listeners, logArguments, new DecisionCounters());
    }

    public DecisionLog(List<DecisionListener> listeners, boolean logArguments, DecisionCounters counters) {
        this.counters = counters;
        this.meters = new MicrometerMeters();
        this.listeners = listeners.toArray(new DecisionListener[0]);
        this.logArguments = logArguments;
        boolean anyReadsTime = false;
        for (DecisionListener listener : this.listeners) {
            anyReadsTime |= listener.readsTime();
        }
        this.readsTime = anyReadsTime;
    }

    /** This log, showing a verified caller's subject as its SHA-256 when {@code hash} ({@code log_user=hash}); made before any decision. */
    public DecisionLog hashingUsers(boolean hash) {
        this.hashUser = hash;
        return this;
    }

    /** This log, not putting decisions on OpenTelemetry traces when {@code !traced} ({@code otel=off}); made before any decision. */
    public DecisionLog tracing(boolean traced) {
        this.spans = traced ? spans : null;
        return this;
    }

    /** The decision line through the sink {@code log} names (none for {@code off}), then the audit file when {@code audit} is set. */
    public static DecisionLog configured(LogTarget target, Path auditPath, boolean logArguments, StartupSummary summary) {
        return configured(target, auditPath, logArguments, summary, new DecisionCounters());
    }

    /** As above, counting every decision in {@code counters} (for JMX) whatever the log does. */
    public static DecisionLog configured(LogTarget target, Path auditPath, boolean logArguments, StartupSummary summary,
            DecisionCounters counters) {
        return configured(target, auditPath, logArguments, summary, counters, null);
    }

    /** As above, and into {@code recent} (the admin page's ring buffer) when it is not {@code null}. */
    public static DecisionLog configured(LogTarget target, Path auditPath, boolean logArguments, StartupSummary summary,
            DecisionCounters counters, DecisionListener recent) {
        List<DecisionListener> listeners = new ArrayList<>(3);
        if (target != LogTarget.OFF) {
            listeners.add(new DecisionLine(target == LogTarget.STDERR ? DecisionSink.stderr() : null, summary));
        }
        if (auditPath != null) {
            listeners.add(new AuditFile(auditPath));
        }
        if (recent != null) {
            listeners.add(recent);
        }
        return new DecisionLog(listeners, logArguments, counters);
    }

    /**
     * Tells every listener of one decision; never throws and never changes it. A listener that throws
     * is counted and reported ({@link Diagnostics#listenerError}) and the next one is told all the same.
     */
    public void record(ToolCall call, Decision decision, long tookMicros, ClassLoader sdkLoader) {
        record(call, decision, tookMicros, sdkLoader, null);
    }

    /** As above, for a decision that held the call for approval or ended the hold ({@code approval}). */
    public void record(ToolCall call, Decision decision, long tookMicros, ClassLoader sdkLoader, ApprovalNote approval) {
        record(call, decision, tookMicros, sdkLoader, approval, null);
    }

    /** As above, for a call whose answer a result rule judged: {@code redacted} is what it redacted, or {@code null}. */
    public void record(ToolCall call, Decision decision, long tookMicros, ClassLoader sdkLoader, ApprovalNote approval,
            String redacted) {
        DigestSwitch.served();
        try {
            counters.count(call, decision);
        } catch (Throwable t) {
            Diagnostics.listenerError("metrics", "tool " + call.tool(), t);
        }
        try {
            meters.record(call, decision, tookMicros, sdkLoader);
        } catch (Throwable t) {
            Diagnostics.listenerError("micrometer", "tool " + call.tool(), t);
        }
        if (spans != null) {
            try {
                spans.record(call, decision, approval, sdkLoader);
            } catch (Throwable t) {
                Diagnostics.listenerError("otel", "tool " + call.tool(), t);
            }
        }
        if (listeners.length == 0) {
            return;
        }
        DecisionRecord record = new DecisionRecord(readsTime ? Instant.now() : null, call, decision, tookMicros, logArguments, approval,
                redacted, hashUser);
        for (DecisionListener listener : listeners) {
            try {
                listener.decided(record, sdkLoader);
            } catch (Throwable t) {
                Diagnostics.listenerError(listener.name(), "tool " + call.tool(), t);
            }
        }
    }
}
