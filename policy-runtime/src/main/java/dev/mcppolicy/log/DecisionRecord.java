package dev.mcppolicy.log;

import dev.mcppolicy.engine.Caller;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.text.DisplayText;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One decision as it is logged (SPEC §8), rendered either as the {@code mcp-policy ...} log line or
 * as a JSON object for the audit file. Argument values never appear, only their keys and the SHA-256
 * of their canonical JSON, unless the record was made with {@code logArguments}.
 *
 * <p>Most field values come from the caller (tool, server, session, client, argument keys and values)
 * or name them (rule, reason), so neither form lets a value forge a field, a line or the look of one:
 * <ul>
 *   <li>The line is always exactly one line. A value is written bare only when it is non-empty and holds
 *       nothing but visible characters other than {@code "}, {@code =} and {@code \}; otherwise it is
 *       quoted, with {@code "} and {@code \} escaped by a backslash and every unsafe code point (line
 *       breaks, C0 and C1 controls, DEL, U+2028/U+2029, bidi controls and other format characters, lone
 *       surrogates: see {@link DisplayText}) as a JSON escape, so a quoted value reads back as a JSON
 *       string. {@code reason} and {@code args} are always quoted.
 *   <li>The line caps each value: {@code args} at {@value #ARGS_CAP} chars, {@code reason} at
 *       {@value #REASON_CAP}, every other field at {@value #FIELD_CAP}. A longer value keeps that many
 *       chars and ends with how many were cut: {@code tool="aaaa…(+9984 chars)"}.
 *   <li>The audit object ({@link #toJson}) is valid JSON on one line and keeps every value in full,
 *       with the same unsafe code points escaped.
 * </ul>
 */
public final class DecisionRecord {
    /** The most chars of a tool, server, rule, session, client or argument-keys value the line shows. */
    public static final int FIELD_CAP = 256;
    /** The most chars of a reason the line shows. */
    public static final int REASON_CAP = 1024;
    /** The most chars of the arguments' canonical JSON the line shows (with {@code logArguments}). */
    public static final int ARGS_CAP = 4096;

    private final Instant at;
    private final ToolCall call;
    private final Decision decision;
    private final long tookMicros;
    private final boolean logArguments;
    private final ApprovalNote approval;
    private final String redacted;
    private final boolean hashUser;

    public DecisionRecord(Instant at, ToolCall call, Decision decision, long tookMicros, boolean logArguments) {
        this(at, call, decision, tookMicros, logArguments, null);
    }

    /**
     * A decision that held the call for approval, or the one that ended the hold ({@code approval}). {@code at} may
     * be {@code null} when no one reads it (a log with the line alone): the JSON forms then take the time they are made.
     */
    public DecisionRecord(Instant at, ToolCall call, Decision decision, long tookMicros, boolean logArguments, ApprovalNote approval) {
        this(at, call, decision, tookMicros, logArguments, approval, null);
    }

    /**
     * As above, for a call whose answer a result rule judged (SPEC §13): {@code redacted} is what it redacted,
     * {@code <detector>:<count>,...} (never a secret), or {@code null}.
     */
    public DecisionRecord(Instant at, ToolCall call, Decision decision, long tookMicros, boolean logArguments, ApprovalNote approval,
            String redacted) {
        this(at, call, decision, tookMicros, logArguments, approval, redacted, false);
    }

    /**
     * As above; {@code hashUser} ({@code log_user=hash}): the verified caller's subject is shown as
     * {@code sha256:<hex>} of its UTF-8, not as it is (issue 32).
     */
    public DecisionRecord(Instant at, ToolCall call, Decision decision, long tookMicros, boolean logArguments, ApprovalNote approval,
            String redacted, boolean hashUser) {
        this.hashUser = hashUser;
        this.at = at;
        this.call = call;
        this.decision = decision;
        this.tookMicros = tookMicros;
        this.logArguments = logArguments;
        this.approval = approval;
        this.redacted = redacted;
    }

    /** Whether {@link #user()} is the subject's hash ({@code log_user=hash}). */
    public boolean hashesUser() {
        return hashUser;
    }

    /**
     * Who called, as the line's {@code user=} shows it: the verified caller's subject (or {@code sha256:<hex>} of it,
     * {@link #hashesUser()}); {@code null} when the caller was not verified, and the line has no {@code user=}.
     */
    public String user() {
        Caller caller = call.caller();
        if (!caller.verified() || caller.sub() == null) {
            return null;
        }
        return hashUser ? "sha256:" + CanonicalJson.sha256Hex(caller.sub().getBytes(StandardCharsets.UTF_8)) : caller.sub();
    }

    /** What a result rule redacted from the call's answer, {@code <detector>:<count>,...}, or {@code null}. */
    public String redacted() {
        return redacted;
    }

    /** The approval this decision held the call for, or ended; {@code null} for most decisions. */
    public ApprovalNote approval() {
        return approval;
    }

    /** {@code HOLD} for a call held for approval, else the effect. */
    private String decisionWord() {
        return approval != null && approval.isHold() ? "HOLD" : decision.effect().name();
    }

    public Decision decision() {
        return decision;
    }

    public ToolCall call() {
        return call;
    }

    /** When the call was decided; {@code null} when it was made without its time (see the constructor). */
    public Instant at() {
        return at;
    }

    /** How long deciding took, in microseconds. */
    public long tookMicros() {
        return tookMicros;
    }

    /**
     * {@code mcp-policy decision=DENY tool=run_command side=server rule=/tools/run_command/deny_if/0
     * arg=args.command reason="..." session=... client=... user=... args_sha256=... took_us=3}; {@code arg} (the
     * argument path a condition looked at, never its value) only on decisions a condition made, {@code user} only for a
     * verified caller.
     */
    public String toLine() {
        Lines lines = LINES.get();
        StringBuilder line = lines.text;
        line.setLength(0);
        line.append("mcp-policy decision=").append(decisionWord());
        if (decision.isMonitored()) {
            line.append(" would=").append(decision.wouldBe());
        }
        switch (call.kind()) {
            case RESOURCE:
                field(line, " kind=resource uri=", call.tool());
                break;
            case PROMPT:
                field(line, " kind=prompt prompt=", call.tool());
                break;
            default:
                field(line, " tool=", call.tool());
        }
        line.append(" side=").append(call.side().word());
        if (call.server() != null) {
            field(line, " server=", call.server());
        }
        lines.rule = field(line, " rule=", decision.rule(), lines.rule);
        if (decision.argument() != null) {
            field(line, " arg=", decision.argument());
        }
        if (decision.reason() != null) {
            quoted(line, " reason=", decision.reason(), REASON_CAP);
        }
        if (decision.retryAfterSeconds() > 0) {
            line.append(" retry_after=").append(decision.retryAfterSeconds());
        }
        if (redacted != null) {
            field(line, " redacted=", redacted);
        }
        if (approval != null) {
            field(line, " approval_id=", approval.id());
            if (!approval.isHold()) {
                line.append(" approval=").append(approval.outcome());
                if (approval.approver() != null) {
                    field(line, " approver=", approval.approver());
                }
                line.append(" waited_ms=").append(approval.waitedMillis());
            }
            if (approval.via() != null) {
                field(line, " approval_via=", approval.via());
            }
        }
        lines.session = field(line, " session=", orDash(call.sessionId()), lines.session);
        lines.client = field(line, " client=", orDash(call.clientId()), lines.client);
        String user = user();
        if (user != null) {
            field(line, " user=", user);
        }
        lines.keys = field(line, " arg_keys=", argumentKeysText(), lines.keys);
        CanonicalJson.appendSha256(call.arguments(), line.append(" args_sha256="));
        if (logArguments) {
            quoted(line, " args=", CanonicalJson.write(call.arguments()), ARGS_CAP);
        }
        String text = line.append(" took_us=").append(tookMicros).toString();
        if (line.capacity() > MOST_KEPT_LINE) {
            // a huge line (log_arguments) is not kept for the thread's next one, as Log4j 2 caps its reusable messages
            lines.text = new StringBuilder(Lines.FIRST);
        }
        return text;
    }

    /**
     * Each thread's line builder, reused from line to line: a typical line (a UUID session, a 64-digit hash) is
     * about 250 chars, and a fresh builder of that size is a third of what building a line allocates. Beside it, the
     * session, client, rule and argument keys the thread last wrote bare: within a session they are the very same
     * strings call after call (the SDK's session id, the client's {@code clientInfo} name, the policy's rule, the
     * parser's interned keys), and a string seen to need no quotes never will, so they are not scanned again.
     */
    private static final class Lines {
        static final int FIRST = 320;
        StringBuilder text = new StringBuilder(FIRST);
        String session;
        String client;
        String rule;
        String keys;
    }

    /** A subclass rather than {@code withInitial}: no lambda is spun for it on a cold JVM. */
    private static final ThreadLocal<Lines> LINES = new ThreadLocal<Lines>() {
        @Override
        protected Lines initialValue() {
            return new Lines();
        }
    };
    private static final int MOST_KEPT_LINE = 2048;

    /** The same fields as one JSON object, for the audit file. */
    public String toJson() {
        return json(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    /**
     * {@link #toJson} with each value cut as the line cuts it (tool, server, rule, session, client at
     * {@value #FIELD_CAP} chars, the reason at {@value #REASON_CAP}), {@code arg_keys} holding the keys that
     * fit in {@value #FIELD_CAP} chars and then one {@code "…(+N keys)"}, and {@code args} (with
     * {@code logArguments}), when its JSON is longer than {@value #ARGS_CAP} chars, as a string cut
     * there. Still valid JSON; at most a few KB whatever the call was: for copies kept in memory.
     */
    public String toBoundedJson() {
        return json(FIELD_CAP, REASON_CAP, ARGS_CAP);
    }

    private String json(int fieldCap, int reasonCap, int argsCap) {
        StringBuilder json = new StringBuilder(256).append('{');
        member(json, "ts", (at != null ? at : Instant.now()).toString(), fieldCap).append(',');
        member(json, "decision", decisionWord(), fieldCap).append(',');
        member(json, "would", decision.wouldBe().name(), fieldCap).append(',');
        if (call.kind() == Kind.TOOL) {
            member(json, "tool", call.tool(), fieldCap).append(',');
        } else {
            member(json, "kind", call.kind().word(), fieldCap).append(',');
            member(json, call.kind() == Kind.RESOURCE ? "uri" : "prompt", call.tool(), fieldCap).append(',');
        }
        member(json, "side", call.side().word(), fieldCap).append(',');
        member(json, "server", call.server(), fieldCap).append(',');
        member(json, "rule", decision.rule(), fieldCap).append(',');
        member(json, "arg", decision.argument(), fieldCap).append(',');
        member(json, "reason", decision.reason(), reasonCap).append(',');
        json.append("\"retry_after\":").append(decision.retryAfterSeconds()).append(',');
        if (redacted != null) {
            member(json, "redacted", redacted, fieldCap).append(',');
        }
        if (approval != null) {
            member(json, "approval_id", approval.id(), fieldCap).append(',');
            member(json, "approval", approval.isHold() ? "held" : approval.outcome(), fieldCap).append(',');
            member(json, "approver", approval.approver(), fieldCap).append(',');
            json.append("\"waited_ms\":").append(approval.waitedMillis()).append(',');
            if (approval.via() != null) {
                member(json, "approval_via", approval.via(), fieldCap).append(',');
            }
        }
        member(json, "session", call.sessionId(), fieldCap).append(',');
        member(json, "client", call.clientId(), fieldCap).append(',');
        String user = user();
        if (user != null) {
            member(json, "user", user, fieldCap).append(',');
        }
        json.append("\"arg_keys\":");
        DisplayText.appendJsonText(CanonicalJson.write(keysWithin(argumentKeys(), fieldCap)), json);
        json.append(',');
        member(json, "args_sha256", argumentsHash(), fieldCap).append(',');
        if (logArguments) {
            json.append("\"args\":");
            String args = CanonicalJson.write(call.arguments());
            if (args.length() <= argsCap) {
                DisplayText.appendJsonText(args, json);
            } else {
                json.append('"');
                DisplayText.appendQuoted(args, '"', argsCap, json);
                json.append('"');
            }
            json.append(',');
        }
        return json.append("\"took_us\":").append(tookMicros).append('}').toString();
    }

    /** The keys whose names fit in {@code cap} chars together, then {@code "…(+N keys)"} for the rest. */
    private static List<String> keysWithin(List<String> keys, int cap) {
        if (cap == Integer.MAX_VALUE) {
            return keys;
        }
        int chars = 0;
        for (int i = 0; i < keys.size(); i++) {
            chars += keys.get(i).length();
            if (chars > cap) {
                List<String> kept = new ArrayList<>(keys.subList(0, i));
                kept.add("\u2026(+" + (keys.size() - i) + " keys)");
                return kept;
            }
        }
        return keys;
    }

    /** The keys, sorted, comma-separated; no list for none or one (most calls). */
    private String argumentKeysText() {
        Map<String, ?> arguments = call.arguments();
        if (arguments.isEmpty()) {
            return "";
        }
        if (arguments.size() == 1) {
            return String.valueOf(arguments.keySet().iterator().next());
        }
        return String.join(",", argumentKeys());
    }

    private List<String> argumentKeys() {
        List<String> keys = new ArrayList<>(call.arguments().size());
        for (Object key : call.arguments().keySet()) {
            keys.add(String.valueOf(key));
        }
        Collections.sort(keys);
        return keys;
    }

    private String argumentsHash() {
        return CanonicalJson.sha256(call.arguments());
    }

    private static String orDash(String value) {
        return value == null || value.isEmpty() ? "-" : value;
    }

    /**
     * {@link #field(StringBuilder, String, String)} for a value that repeats: {@code known} is the string this
     * thread last wrote bare for the field, which needs no check again. Returns the value when written bare (the
     * field's next {@code known}), else {@code null}.
     */
    private static String field(StringBuilder line, String prefix, String value, String known) {
        if (value == known || value.length() <= FIELD_CAP && !needsQuotes(value)) {
            line.append(prefix).append(value);
            return value;
        }
        quoted(line, prefix, value, FIELD_CAP);
        return null;
    }

    /**
     * Writes {@code name=value}, quoting the value unless it is plain visible text, and capping it.
     * {@code prefix}: the field's {@code " name="}, one append rather than three.
     */
    private static void field(StringBuilder line, String prefix, String value) {
        field(line, prefix, value, null);
    }

    private static void quoted(StringBuilder line, String prefix, String value, int cap) {
        line.append(prefix).append('"');
        DisplayText.appendQuoted(value, '"', cap, line);
        line.append('"');
    }

    private static boolean needsQuotes(String value) {
        if (value.isEmpty()) {
            return true;
        }
        for (int i = 0; i < value.length(); ) {
            char unit = value.charAt(i);
            if (unit < 0x7f) {
                // the common case, without the code point's work
                if (unit <= ' ' || unit == '"' || unit == '=' || unit == '\\') {
                    return true;
                }
                i++;
                continue;
            }
            int c = value.codePointAt(i);
            if (DisplayText.isUnsafe(c) || Character.isWhitespace(c) || Character.isSpaceChar(c)) {
                return true;
            }
            i += Character.charCount(c);
        }
        return false;
    }

    private static StringBuilder member(StringBuilder json, String name, String value, int cap) {
        CanonicalJson.quote(name, json);
        json.append(':');
        if (value == null) {
            return json.append("null");
        }
        json.append('"');
        DisplayText.appendQuoted(value, '"', cap, json);
        return json.append('"');
    }
}
