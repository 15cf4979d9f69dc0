package dev.mcppolicy.schema;

import dev.mcppolicy.json.JsonPointers;

/**
 * How an instance breaks a schema, and where. Built only when a check fails; a quiet check (a branch of
 * {@code anyOf}, {@code oneOf}, {@code not}, {@code if} or {@code contains}, where failing is an answer)
 * fails with one of two shared markers instead, so trying branches allocates nothing.
 */
final class Violation {
    /** A quiet check failed. */
    static final Violation FAILED = new Violation(null, false);
    /** A quiet check failed on the subschema's own {@code type}: {@code anyOf} explains another branch first. */
    static final Violation WRONG_TYPE = new Violation(null, false);

    private final StringBuilder pointer;
    final String message;
    /**
     * The check was stopped (the value nests too deeply through {@code $ref}, or the work budget is spent):
     * it fails the whole value, through {@code not} and every branch, and never turns into a pass.
     */
    final boolean stopped;
    private Violation cause;
    private String causeLabel;
    private String causeEnd;

    private Violation(String message, boolean stopped) {
        this.pointer = message == null ? null : new StringBuilder();
        this.message = message;
        this.stopped = stopped;
    }

    static Violation of(String message) {
        return new Violation(message, false);
    }

    static Violation stop(String message) {
        return new Violation(message, true);
    }

    /**
     * {@code message}, then {@code label}, where and how {@code cause} fails, and {@code end}: the branch
     * of an {@code anyOf} or {@code oneOf} that came closest. When that branch failed in a combinator of
     * its own, the failure it comes down to stands for it, so that a message stays as short as its pointer.
     */
    static Violation explained(String message, String label, Violation cause, String end) {
        Violation violation = of(message);
        if (cause != null && cause.message != null) {
            violation.cause = cause.cause != null ? cause.cause : cause;
            violation.causeLabel = label;
            violation.causeEnd = end;
        }
        return violation;
    }

    /** This violation seen from the parent of the value it is about, which holds that value at {@code token}. */
    Violation under(String token) {
        if (message == null) {
            return this;
        }
        String step = "/" + JsonSchema.shown(JsonPointers.escape(token));
        pointer.insert(0, step);
        if (cause != null) {
            cause.pointer.insert(0, step);
        }
        return this;
    }

    /** {@code at <pointer>: <message>}, and how the closest branch fails. */
    String render() {
        StringBuilder text = new StringBuilder("at ").append(where(pointer)).append(": ").append(message);
        if (cause != null) {
            text.append(causeLabel).append(" fails at ").append(where(cause.pointer)).append(": ").append(cause.message)
                    .append(causeEnd);
        }
        return text.toString();
    }

    private static CharSequence where(StringBuilder pointer) {
        return pointer.length() == 0 ? "/" : pointer;
    }
}
