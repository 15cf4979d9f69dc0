package dev.mcppolicy.condition;

import com.google.re2j.Pattern;
import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.json.JsonValues;
import dev.mcppolicy.policy.Condition;
import dev.mcppolicy.policy.Op;
import java.util.List;
import java.util.Map;

/**
 * A {@link Condition} compiled for evaluation. Semantics (SPEC §3): a condition on an absent path is
 * false, except {@code exists: false}. A value of the wrong type for the op (a string compared with
 * {@code lt}, a number matched with {@code regex}) makes the condition false. A string longer than the
 * engine's cap makes the condition <em>hostile</em>: it then fails a {@code require} and matches a
 * {@code deny_if}, whatever the op, so oversized input cannot slow a decision or slip through one.
 */
public final class ArgumentCondition {
    /** Outcomes of {@link #test}. */
    public enum Outcome { TRUE, FALSE, HOSTILE }

    private final Condition source;
    private final ArgumentPath path;
    private final Op op;
    private final Object value;
    private final List<?> values;
    private final Pattern pattern;
    private final long maxLength;
    private final int valueLengthCap;

    public ArgumentCondition(Condition source, int valueLengthCap) {
        this.source = source;
        this.path = ArgumentPath.parse(source.path());
        this.op = source.op();
        this.value = source.value();
        this.values = value instanceof List ? (List<?>) value : List.of();
        this.pattern = op == Op.REGEX ? Pattern.compile((String) value) : null;
        this.maxLength = op == Op.MAX_LENGTH ? lengthLimit((Number) value) : -1;
        this.valueLengthCap = valueLengthCap;
    }

    /** A limit beyond any length a value can have is no limit; {@code longValue} would keep only its low bits. */
    private static long lengthLimit(Number limit) {
        return JsonValues.compareNumbers(limit, Long.MAX_VALUE) > 0 ? Long.MAX_VALUE : limit.longValue();
    }

    public Condition source() {
        return source;
    }

    public Outcome test(Map<String, ?> arguments) {
        Object actual = path.resolve(arguments);
        if (actual == ArgumentPath.ABSENT) {
            return op == Op.EXISTS && Boolean.FALSE.equals(value) ? Outcome.TRUE : Outcome.FALSE;
        }
        if (actual instanceof String && ((String) actual).length() > valueLengthCap) {
            return Outcome.HOSTILE;
        }
        return holds(actual) ? Outcome.TRUE : Outcome.FALSE;
    }

    private boolean holds(Object actual) {
        switch (op) {
            case EXISTS:
                return Boolean.TRUE.equals(value);
            case EQ:
                return JsonValues.jsonEquals(actual, value);
            case NEQ:
                return !JsonValues.jsonEquals(actual, value);
            case IN:
                return isAmongValues(actual);
            case NOT_IN:
                return !isAmongValues(actual);
            case LT:
            case LTE:
            case GT:
            case GTE:
                return compares(actual);
            case REGEX:
                return actual instanceof String && pattern.matcher((String) actual).find();
            case CONTAINS:
                return contains(actual);
            case MAX_LENGTH:
                return lengthWithin(actual);
            default:
                throw new IllegalStateException("unknown op " + op);
        }
    }

    private boolean isAmongValues(Object actual) {
        for (Object candidate : values) {
            if (JsonValues.jsonEquals(candidate, actual)) {
                return true;
            }
        }
        return false;
    }

    private boolean compares(Object actual) {
        if (!(actual instanceof Number)) {
            return false;
        }
        int order = JsonValues.compareNumbers((Number) actual, (Number) value);
        if (order == JsonValues.UNORDERED) {
            return false;
        }
        switch (op) {
            case LT: return order < 0;
            case LTE: return order <= 0;
            case GT: return order > 0;
            default: return order >= 0;
        }
    }

    private boolean contains(Object actual) {
        if (actual instanceof String) {
            return value instanceof String && ((String) actual).contains((String) value);
        }
        if (actual instanceof List) {
            for (Object element : (List<?>) actual) {
                if (JsonValues.jsonEquals(element, value)) {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean lengthWithin(Object actual) {
        if (actual instanceof String) {
            return ((String) actual).length() <= maxLength;
        }
        if (actual instanceof List) {
            return ((List<?>) actual).size() <= maxLength;
        }
        if (actual instanceof Map) {
            return ((Map<?, ?>) actual).size() <= maxLength;
        }
        return false;
    }

    /** The condition as a reader would write it: {@code command regex "^(ls|cat)( .*)?$"}. */
    public String describe() {
        StringBuilder text = new StringBuilder(source.path()).append(' ').append(op.word());
        if (op != Op.EXISTS || Boolean.FALSE.equals(value)) {
            text.append(' ');
            CanonicalJson.write(value, text);
        }
        return text.toString();
    }
}
