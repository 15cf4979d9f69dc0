package dev.mcppolicy.log;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.json.CanonicalJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * One decision as it is logged (SPEC §8), rendered either as the {@code mcp-policy ...} log line or
 * as a JSON object for the audit file. Argument values never appear, only their keys and the SHA-256
 * of their canonical JSON, unless the record was made with {@code logArguments}.
 */
public final class DecisionRecord {
    private final Instant at;
    private final ToolCall call;
    private final Decision decision;
    private final long tookMicros;
    private final boolean logArguments;

    public DecisionRecord(Instant at, ToolCall call, Decision decision, long tookMicros, boolean logArguments) {
        this.at = at;
        this.call = call;
        this.decision = decision;
        this.tookMicros = tookMicros;
        this.logArguments = logArguments;
    }

    public Decision decision() {
        return decision;
    }

    public ToolCall call() {
        return call;
    }

    /**
     * {@code mcp-policy decision=DENY tool=run_command side=server rule=/tools/run_command/deny_if/0
     * reason="..." session=... client=... args_sha256=... took_us=3}.
     */
    public String toLine() {
        StringBuilder line = new StringBuilder(192).append("mcp-policy decision=").append(decision.effect());
        if (decision.isMonitored()) {
            line.append(" would=").append(decision.wouldBe());
        }
        field(line, "tool", call.tool());
        line.append(" side=").append(call.side().word());
        if (call.server() != null) {
            field(line, "server", call.server());
        }
        field(line, "rule", decision.rule());
        if (decision.reason() != null) {
            line.append(" reason=");
            CanonicalJson.quote(decision.reason(), line);
        }
        if (decision.retryAfterSeconds() > 0) {
            line.append(" retry_after=").append(decision.retryAfterSeconds());
        }
        field(line, "session", orDash(call.sessionId()));
        field(line, "client", orDash(call.clientId()));
        field(line, "arg_keys", String.join(",", argumentKeys()));
        line.append(" args_sha256=").append(argumentsHash());
        if (logArguments) {
            line.append(" args=").append(CanonicalJson.write(call.arguments()));
        }
        return line.append(" took_us=").append(tookMicros).toString();
    }

    /** The same fields as one JSON object, for the audit file. */
    public String toJson() {
        StringBuilder json = new StringBuilder(256).append('{');
        member(json, "ts", at.toString()).append(',');
        member(json, "decision", decision.effect().name()).append(',');
        member(json, "would", decision.wouldBe().name()).append(',');
        member(json, "tool", call.tool()).append(',');
        member(json, "side", call.side().word()).append(',');
        member(json, "server", call.server()).append(',');
        member(json, "rule", decision.rule()).append(',');
        member(json, "reason", decision.reason()).append(',');
        json.append("\"retry_after\":").append(decision.retryAfterSeconds()).append(',');
        member(json, "session", call.sessionId()).append(',');
        member(json, "client", call.clientId()).append(',');
        json.append("\"arg_keys\":");
        CanonicalJson.write(argumentKeys(), json);
        json.append(',');
        member(json, "args_sha256", argumentsHash()).append(',');
        if (logArguments) {
            json.append("\"args\":");
            CanonicalJson.write(call.arguments(), json);
            json.append(',');
        }
        return json.append("\"took_us\":").append(tookMicros).append('}').toString();
    }

    private List<String> argumentKeys() {
        return new ArrayList<>(new TreeSet<>(call.arguments().keySet()));
    }

    private String argumentsHash() {
        return CanonicalJson.sha256(call.arguments());
    }

    private static String orDash(String value) {
        return value == null || value.isEmpty() ? "-" : value;
    }

    /** Writes {@code name=value}, quoting the value when it holds spaces, quotes or '='. */
    private static void field(StringBuilder line, String name, String value) {
        line.append(' ').append(name).append('=');
        if (needsQuotes(value)) {
            CanonicalJson.quote(value, line);
        } else {
            line.append(value);
        }
    }

    private static boolean needsQuotes(String value) {
        if (value.isEmpty()) {
            return true;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= ' ' || c == '"' || c == '=' || c == '\\' || c == 0x7f) {
                return true;
            }
        }
        return false;
    }

    private static StringBuilder member(StringBuilder json, String name, String value) {
        CanonicalJson.quote(name, json);
        json.append(':');
        if (value == null) {
            return json.append("null");
        }
        CanonicalJson.quote(value, json);
        return json;
    }
}
