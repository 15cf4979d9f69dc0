package dev.mcppolicy.agent.log;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.config.AgentConfig.LogTarget;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.log.DecisionRecord;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Where each decision goes (SPEC §8): one line through the sink chosen by {@code log}, and one JSON
 * object in the audit file when {@code audit} is set. With {@code log=app} the sink is picked at the
 * first decision, from the class loader of the MCP SDK that made it: the app's SLF4J when it has a
 * real provider, else {@code java.util.logging}.
 */
public final class DecisionLog {
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

    public void record(ToolCall call, Decision decision, long tookMicros, ClassLoader sdkLoader) {
        if (target == LogTarget.OFF && audit == null) {
            return;
        }
        DecisionRecord record = new DecisionRecord(Instant.now(), call, decision, tookMicros, logArguments);
        try {
            sinkFor(sdkLoader).accept(record.decision().isDenied(), record.toLine());
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.adviceError("decision log", e);
            System.err.println(record.toLine());
        }
        if (audit != null) {
            audit.append(record.toJson());
        }
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
