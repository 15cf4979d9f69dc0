package dev.mcppolicy.engine;

import dev.mcppolicy.text.DisplayText;
import java.util.Objects;

/**
 * The answer for one call: everything the log line and the caller's error need, nothing else.
 *
 * @param effect what happens to the call
 * @param wouldBe what would have happened had the policy been enforced; differs from {@code effect}
 *     only in monitor mode, where a denial becomes {@code ALLOW} with {@code wouldBe == DENY}
 * @param rule JSON Pointer of the rule that decided ({@code /tools/run_command/deny_if/0}), or one of
 *     {@code (default)}, {@code (hidden)}, {@code (error)}
 * @param reason why, for the caller and the log; {@code null} for a plain allow
 * @param retryAfterSeconds for a rate-limit denial, whole seconds until the limit has room; else 0
 * @param argument for a decision a {@code require} or {@code deny_if} condition made, the argument it
 *     looked at, as a display path: {@code args.command}, or the leaf inside it that decided
 *     ({@code args.command.0}); else {@code null}. A path, never a value.
 */
public record Decision(Effect effect, Effect wouldBe, String rule, String reason, long retryAfterSeconds, String argument) {
    public static final String DEFAULT_RULE = "(default)";
    public static final String HIDDEN_RULE = "(hidden)";
    public static final String ERROR_RULE = "(error)";
    /** The most chars of a tool name {@link #callerMessage} echoes. */
    public static final int TOOL_NAME_CAP = 256;

    public Decision {
        Objects.requireNonNull(effect, "effect");
        Objects.requireNonNull(wouldBe, "wouldBe");
        Objects.requireNonNull(rule, "rule");
    }

    /** A decision no argument condition made. */
    public Decision(Effect effect, Effect wouldBe, String rule, String reason, long retryAfterSeconds) {
        this(effect, wouldBe, rule, reason, retryAfterSeconds, null);
    }

    /** A denial that no policy made: the agent's fail-closed answer when it cannot decide. */
    public static Decision error(String reason) {
        return new Decision(Effect.DENY, Effect.DENY, ERROR_RULE, reason, 0);
    }

    /**
     * The fail-open counterpart of {@link #error}: allowed, and logged as the error it is (rule
     * {@code (error)}, at WARN), not as a monitor-mode allow: no policy said it would deny.
     */
    public static Decision errorAllowed(String reason) {
        return new Decision(Effect.ALLOW, Effect.ALLOW, ERROR_RULE, reason, 0);
    }

    /** Whether no policy made this decision: the agent could not decide ({@link #error}, {@link #errorAllowed}). */
    public boolean isError() {
        return ERROR_RULE.equals(rule);
    }

    /** Whether the decision line is a warning: a denial, or a call let through unchecked by {@code on_error=allow}. */
    public boolean isWarning() {
        return effect == Effect.DENY || isError();
    }

    public boolean isDenied() {
        return effect == Effect.DENY;
    }

    /** Whether monitor mode let through a call the policy would have denied. */
    public boolean isMonitored() {
        return effect != wouldBe;
    }

    public boolean isHidden() {
        return HIDDEN_RULE.equals(rule);
    }

    /**
     * The text a denied caller reads (SPEC §5):
     * {@code Policy denied tool 'run_command': <reason>; retry after 6s [rule /tools/run_command/limits/0]}.
     * The tool name is the caller's own, so it is echoed as {@link DisplayText} shows untrusted text:
     * {@code '} and {@code \} escaped with a backslash, line breaks, controls, bidi and other format
     * characters and lone surrogates as <code>&#92;uXXXX</code>, and cut after {@value #TOOL_NAME_CAP} chars
     * with {@code …(+N chars)}; the message is one line whatever the name.
     */
    public String callerMessage(String tool) {
        return callerMessage(Kind.TOOL, tool);
    }

    /**
     * {@link #callerMessage(String)} for a call of any kind (SPEC §12):
     * {@code Policy denied resource 'file:///etc/passwd': system files are off limits [rule /resources/file:~1~1~1etc~1*]}.
     */
    public String callerMessage(Kind kind, String tool) {
        StringBuilder text = new StringBuilder("Policy denied ").append(kind.word()).append(" '");
        DisplayText.appendQuoted(String.valueOf(tool), '\'', TOOL_NAME_CAP, text);
        text.append("': ").append(reason == null ? "denied by policy" : reason);
        if (retryAfterSeconds > 0) {
            text.append("; retry after ").append(retryAfterSeconds).append('s');
        }
        return text.append(" [rule ").append(rule).append(']').toString();
    }
}
