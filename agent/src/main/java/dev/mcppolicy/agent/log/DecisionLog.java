package dev.mcppolicy.agent.log;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.config.AgentConfig.LogTarget;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.log.DecisionRecord;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * Where each decision goes (SPEC §8): one line through the sink chosen by {@code log}, and one JSON
 * object in the audit file when {@code audit} is set. With {@code log=app} the sink is picked at the
 * first decision, from the class loader of the MCP SDK that made it: the app's SLF4J when it has a
 * real provider, else {@code java.util.logging}.
 */
public final class DecisionLog {
    /** The fields a line for empty arguments has, which a line for unreadable ones must not. */
    private static final String NO_ARGUMENTS = " arg_keys=\"\" args_sha256=" + CanonicalJson.sha256(Map.of());

    private final LogTarget target;
    private final boolean logArguments;
    private final AuditFile audit;
    private volatile DecisionSink sink;

    public DecisionLog(LogTarget target, Path auditPath, boolean logArguments) {
        this.target = target;
        this.logArguments = logArguments;
        this.audit = auditPath == null ? null : new AuditFile(auditPath);
        this.sink = target == LogTarget.STDERR ? DecisionSink.stderr() : target == LogTarget.OFF ? DecisionSink.off() : null;
    }

    /**
     * Logs one decision; never throws and never changes it. A sink that throws (the app's logger) is
     * reported once and the line goes to stderr instead; arguments that cannot be read make a line
     * without their keys and hash; the audit record is queued, never waited for.
     */
    public void record(ToolCall call, Decision decision, long tookMicros, ClassLoader sdkLoader) {
        if (target == LogTarget.OFF && audit == null) {
            return;
        }
        DecisionRecord record = new DecisionRecord(Instant.now(), call, decision, tookMicros, logArguments);
        String line;
        try {
            line = record.toLine();
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.adviceError("decision log line", "tool " + call.tool(), e);
            line = unreadableArguments(call, decision, tookMicros, e);
        }
        try {
            sinkFor(sdkLoader).accept(decision.isWarning(), line);
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.adviceError("decision log sink", e);
            System.err.println(line);
        }
        if (audit != null) {
            try {
                audit.append(record.toJson());
            } catch (RuntimeException | LinkageError e) {
                Diagnostics.adviceError("audit record", "tool " + call.tool(), e);
            }
        }
    }

    /** The line of a call whose arguments could not be read: every field but their keys and hash. */
    private static String unreadableArguments(ToolCall call, Decision decision, long tookMicros, Throwable error) {
        ToolCall without = new ToolCall(call.side(), call.server(), call.tool(), Map.of(), call.sessionId(),
                call.clientId(), null);
        // the keys and hash of no arguments would claim what was not read
        return new DecisionRecord(Instant.now(), without, decision, tookMicros, false).toLine()
                .replace(NO_ARGUMENTS, " args_unreadable=" + error.getClass().getSimpleName());
    }

    private DecisionSink sinkFor(ClassLoader sdkLoader) {
        DecisionSink current = sink;
        if (current == null) {
            synchronized (this) {
                current = sink;
                if (current == null) {
                    current = Slf4jSink.find(sdkLoader);
                    if (current == null) {
                        current = DecisionSink.jul();
                    }
                    Diagnostics.info("decision log: " + current.describe());
                    sink = current;
                }
            }
        }
        return current;
    }

    public LogTarget target() {
        return target;
    }
}
