package dev.mcppolicy.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Comparisons over JSON-like Java values ({@code Map}, {@code List}, {@code String}, {@code Number},
 * {@code Boolean}, {@code null}). Numbers compare by value whatever their Java type: {@code 1},
 * {@code 1L}, {@code 1.0} and {@code BigDecimal("1.00")} are all equal.
 */
public final class JsonValues {
    /** Returned by {@link #compareNumbers} when the two numbers have no order (NaN). */
    public static final int UNORDERED = Integer.MIN_VALUE;

    private JsonValues() {
    }

    /** Negative, zero or positive as {@code a} is less than, equal to or greater than {@code b}; {@link #UNORDERED} for NaN. */
    public static int compareNumbers(Number a, Number b) {
        if (isSmallIntegral(a) && isSmallIntegral(b)) {
            return Long.compare(a.longValue(), b.longValue());
        }
        if (isFloating(a) && isFloating(b)) {
            return compareDoubles(a.doubleValue(), b.doubleValue());
        }
        BigDecimal x = toBigDecimal(a);
        BigDecimal y = toBigDecimal(b);
        if (x != null && y != null) {
            return x.compareTo(y);
        }
        // NaN or an infinity: an infinity lies beyond every finite number, however large its decimal.
        return compareDoubles(x == null ? a.doubleValue() : x.signum(), y == null ? b.doubleValue() : y.signum());
    }

    /** As JSON has it, -0.0 equals 0.0 ({@link Double#compare} would order them). */
    private static int compareDoubles(double x, double y) {
        if (Double.isNaN(x) || Double.isNaN(y)) {
            return UNORDERED;
        }
        return x < y ? -1 : x > y ? 1 : 0;
    }

    /** Whether a number is a whole number (JSON Schema's {@code integer}): {@code 3}, {@code 3.0}, {@code 3E2}. */
    public static boolean isIntegral(Number number) {
        if (isSmallIntegral(number) || number instanceof BigInteger) {
            return true;
        }
        if (isFloating(number)) {
            double d = number.doubleValue();
            return !Double.isInfinite(d) && d == Math.rint(d);
        }
        BigDecimal decimal = toBigDecimal(number);
        return decimal != null && (decimal.signum() == 0 || decimal.stripTrailingZeros().scale() <= 0);
    }

    /**
     * Whether {@code value} divided by {@code divisor} is a whole number (JSON Schema's {@code multipleOf}),
     * exactly, in decimal: 0.3 is a multiple of 0.1. {@code divisor} must be greater than 0; NaN and the
     * infinities are multiples of nothing. Works on the digits of the two numbers, never on a power of
     * ten as wide as an exponent, so {@code 1e400000000} costs what {@code 1e4} does.
     */
    public static boolean isMultipleOf(Number value, Number divisor) {
        if (isSmallIntegral(value) && isSmallIntegral(divisor)) {
            long d = divisor.longValue();
            return d != 0 && value.longValue() % d == 0;
        }
        BigDecimal x = toBigDecimal(value);
        BigDecimal m = toBigDecimal(divisor);
        if (x == null || m == null || m.signum() == 0) {
            return false;
        }
        if (x.signum() == 0) {
            return true;
        }
        x = x.stripTrailingZeros();
        m = m.stripTrailingZeros();
        // x = a * 10^-s and m = b * 10^-t, so x / m = (a / b) * 10^(t - s).
        BigInteger a = x.unscaledValue().abs();
        BigInteger b = m.unscaledValue().abs();
        long k = (long) m.scale() - x.scale();
        if (k >= 0) {
            // b divides a * 10^k when what b does not share with a is made of at most k twos and k fives.
            return isTwosAndFivesAtMost(b.divide(b.gcd(a)), k);
        }
        // b * 10^-k divides a: impossible when 10^-k alone exceeds a (a has precision digits).
        if (-k >= x.precision()) {
            return false;
        }
        return a.mod(b.multiply(BigInteger.TEN.pow((int) -k))).signum() == 0;
    }

    private static boolean isTwosAndFivesAtMost(BigInteger n, long most) {
        int twos = n.getLowestSetBit();
        BigInteger rest = n.shiftRight(twos);
        BigInteger five = BigInteger.valueOf(5);
        long fives = 0;
        while (rest.mod(five).signum() == 0) {
            rest = rest.divide(five);
            fives++;
        }
        return rest.equals(BigInteger.ONE) && twos <= most && fives <= most;
    }

    /**
     * JSON equality: numbers by value, lists element-wise, maps key-wise; anything else by {@code equals}.
     * Iterative: values nested any number of levels deep compare without a deep Java stack, with work
     * and memory bounded by the smaller of the two values.
     */
    public static boolean jsonEquals(Object a, Object b) {
        if (!bothLists(a, b) && !bothMaps(a, b)) {
            return scalarEquals(a, b);
        }
        ArrayDeque<Object> pending = new ArrayDeque<>();
        pending.push(b);
        pending.push(a);
        while (!pending.isEmpty()) {
            Object x = pending.pop();
            Object y = pending.pop();
            if (bothLists(x, y)) {
                List<?> left = (List<?>) x;
                List<?> right = (List<?>) y;
                if (left.size() != right.size()) {
                    return false;
                }
                Iterator<?> i = left.iterator();
                Iterator<?> j = right.iterator();
                while (i.hasNext()) {
                    if (!push(i.next(), j.next(), pending)) {
                        return false;
                    }
                }
            } else if (bothMaps(x, y)) {
                Map<?, ?> left = (Map<?, ?>) x;
                Map<?, ?> right = (Map<?, ?>) y;
                if (left.size() != right.size()) {
                    return false;
                }
                for (Map.Entry<?, ?> entry : left.entrySet()) {
                    if (!right.containsKey(entry.getKey()) || !push(entry.getValue(), right.get(entry.getKey()), pending)) {
                        return false;
                    }
                }
            } else if (!scalarEquals(x, y)) {
                return false;
            }
        }
        return true;
    }

    /** Compares two members at once when neither is a container, else leaves them for later; false when they differ. */
    private static boolean push(Object x, Object y, ArrayDeque<Object> pending) {
        if (!bothLists(x, y) && !bothMaps(x, y)) {
            return scalarEquals(x, y);
        }
        pending.push(y);
        pending.push(x);
        return true;
    }

    private static boolean bothLists(Object a, Object b) {
        return a instanceof List && b instanceof List;
    }

    private static boolean bothMaps(Object a, Object b) {
        return a instanceof Map && b instanceof Map;
    }

    /** {@link #jsonEquals} for a pair that is not two lists or two maps. */
    private static boolean scalarEquals(Object a, Object b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        if (a instanceof String) {
            return a.equals(b);
        }
        if (a instanceof Number && b instanceof Number) {
            return compareNumbers((Number) a, (Number) b) == 0;
        }
        return a.equals(b);
    }

    /**
     * Whether objects and arrays nest more than {@code maxDepth} levels deep in {@code value} ({@code 1}
     * and {@code "x"} have depth 0, {@code {}} depth 1, {@code {"a": []}} depth 2). Iterative, and it
     * stops at the first container too deep, so its memory is bounded by {@code maxDepth}.
     */
    public static boolean nestsDeeperThan(Object value, int maxDepth) {
        if (!isContainer(value)) {
            return false;
        }
        if (maxDepth < 1) {
            return true;
        }
        ArrayDeque<Iterator<?>> open = new ArrayDeque<>();
        open.push(members(value));
        while (!open.isEmpty()) {
            Iterator<?> members = open.peek();
            if (!members.hasNext()) {
                open.pop();
                continue;
            }
            Object member = members.next();
            if (isContainer(member)) {
                if (open.size() >= maxDepth) {
                    return true;
                }
                open.push(members(member));
            }
        }
        return false;
    }

    private static boolean isContainer(Object value) {
        return value instanceof Map || value instanceof List;
    }

    private static Iterator<?> members(Object container) {
        return container instanceof Map ? ((Map<?, ?>) container).values().iterator() : ((List<?>) container).iterator();
    }

    /** The JSON type of a value: {@code string}, {@code number}, {@code boolean}, {@code object}, {@code array} or {@code null}. */
    public static String typeName(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof Number) {
            return "number";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        if (value instanceof Map) {
            return "object";
        }
        if (value instanceof List) {
            return "array";
        }
        return value.getClass().getSimpleName();
    }

    private static boolean isSmallIntegral(Number n) {
        return n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte;
    }

    private static boolean isFloating(Number n) {
        return n instanceof Double || n instanceof Float;
    }

    /**
     * The decimal a number stands for, or {@code null} for NaN and the infinities. Whole doubles below
     * 1e21 (where JSON writers print every digit) are exact, so {@code 2^60} as a double equals it as a
     * long; any other double is the shortest decimal that reads back as it, as JSON text wrote it: 0.1 is
     * {@code BigDecimal("0.1")}, not 0.1000000000000000055...
     */
    static BigDecimal toBigDecimal(Number n) {
        if (n instanceof BigDecimal) {
            return (BigDecimal) n;
        }
        if (n instanceof BigInteger) {
            return new BigDecimal((BigInteger) n);
        }
        if (isSmallIntegral(n)) {
            return BigDecimal.valueOf(n.longValue());
        }
        double d = n.doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return null;
        }
        return d == Math.rint(d) && Math.abs(d) < 1e21 ? new BigDecimal(d) : new BigDecimal(Double.toString(d));
    }
}
