package dev.mcppolicy.policy;

import java.util.List;
import java.util.Objects;

/**
 * What a rule checks in an answer before the caller sees it (SPEC §13): a tool's result, a resource's
 * contents, a prompt's messages. Checked in this order: {@code max_bytes}, then {@code deny_if} on the
 * answer as the server gave it, then {@code redact}.
 *
 * @param maxBytes the most UTF-8 bytes of text (and base64 of blobs) the answer may hold; larger is denied
 * @param secrets whether the built-in {@code secrets} detectors redact
 * @param redactions custom redactions, in policy order
 * @param denyIf conditions any one of which denies the answer
 */
public record ResultRule(long maxBytes, boolean secrets, List<Redaction> redactions, List<ResultCondition> denyIf) {
    /** {@code max_bytes} when a result rule does not say: 16 MiB, so that no answer is read without a bound. */
    public static final long DEFAULT_MAX_BYTES = 16L << 20;

    public ResultRule {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes < 0");
        }
        redactions = List.copyOf(redactions);
        denyIf = List.copyOf(denyIf);
    }

    /**
     * One custom redaction: every match of {@code regex} (RE2 syntax) is replaced by {@code with}, taken
     * literally ({@code $} and {@code \} are plain characters).
     *
     * @param name how the decision line counts it ({@code redacted=<name>:<count>})
     */
    public record Redaction(String name, String regex, String with) {
        public Redaction {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(regex, "regex");
            Objects.requireNonNull(with, "with");
        }
    }

    /**
     * A {@code deny_if} on an answer.
     *
     * @param condition the condition; with {@code onText} its path is {@link #TEXT_PATH}
     * @param onText whether it tests the answer's text (no {@code path} was written: each text part), else
     *     a dot path into the tool's structured content
     */
    public record ResultCondition(Condition condition, boolean onText) {
        /** The path a condition without {@code path} is checked at: the text parts of the answer. */
        public static final String TEXT_PATH = "text";

        public ResultCondition {
            Objects.requireNonNull(condition, "condition");
        }
    }
}
