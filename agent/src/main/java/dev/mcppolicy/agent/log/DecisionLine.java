package dev.mcppolicy.agent.log;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.status.StartupSummary;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.log.DecisionRecord;
import java.util.Map;

/**
 * The decision line (SPEC §8), written through the sink {@code log} chose. With {@code log=app} the
 * sink is picked at the first decision, from the class loader of the MCP SDK that made it: the app's
 * SLF4J when it has a real provider, else {@code java.util.logging}. A sink that throws (the app's
 * logger) is reported once and the line goes to stderr instead; arguments that cannot be read make a
 * line without their keys and hash.
 */
final class DecisionLine implements DecisionListener {
    /**
     * The SHA-256 of {@code {}}, written out: computing it in this class's initializer would start the JDK's
     * security providers (about 30 ms cold) on the app's thread when the hooks are installed ({@code DecisionLineTest} checks it).
     */
    static final String EMPTY_OBJECT_SHA256 = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";
    /** The fields a line for empty arguments has, which a line for unreadable ones must not. */
    static final String NO_ARGUMENTS = " arg_keys=\"\" args_sha256=" + EMPTY_OBJECT_SHA256;

    private final StartupSummary summary;
    private volatile DecisionSink sink;

    /** @param sink the sink, or {@code null}: the app's logger, found at the first decision */
    DecisionLine(DecisionSink sink, StartupSummary summary) {
        this.sink = sink;
        this.summary = summary;
    }

    @Override
    public void decided(DecisionRecord record, ClassLoader sdkLoader) {
        String line;
        try {
            line = record.toLine();
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.adviceError("decision log line", "tool " + record.call().tool(), e);
            line = unreadableArguments(record, e);
        }
        try {
            sinkFor(sdkLoader).accept(record.decision().isWarning(), line);
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.adviceError("decision log sink", e);
            System.err.println(line);
        }
    }

    @Override
    public String name() {
        return "log line";
    }

    /** The app's logger stamps the line: the record's time is not read. */
    @Override
    public boolean readsTime() {
        return false;
    }

    /** The line of a call whose arguments could not be read: every field but their keys and hash. */
    private static String unreadableArguments(DecisionRecord record, Throwable error) {
        ToolCall call = record.call();
        ToolCall without = new ToolCall(call.side(), call.server(), call.tool(), Map.of(), call.sessionId(), call.clientId(), null,
                call.kind(), call.caller());
        // the keys and hash of no arguments would claim what was not read
        return new DecisionRecord(record.at(), without, record.decision(), record.tookMicros(), false, record.approval(),
                record.redacted(), record.hashesUser()).toLine()
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
                    summary.decisionLogChosen(current.describe());
                    sink = current;
                }
            }
        }
        return current;
    }
}
