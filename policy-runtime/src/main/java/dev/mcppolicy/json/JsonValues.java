package dev.mcppolicy.json;

import java.math.BigDecimal;
import java.math.BigInteger;
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

    public static boolean isNumber(Object value) {
        return value instanceof Number;
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

    /** JSON equality: numbers by value, lists element-wise, maps key-wise; anything else by {@code equals}. */
    public static boolean jsonEquals(Object a, Object b) {
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
        if (a instanceof List && b instanceof List) {
            return listEquals((List<?>) a, (List<?>) b);
        }
        if (a instanceof Map && b instanceof Map) {
            return mapEquals((Map<?, ?>) a, (Map<?, ?>) b);
        }
        return a.equals(b);
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

    private static boolean listEquals(List<?> a, List<?> b) {
        if (a.size() != b.size()) {
            return false;
        }
        Iterator<?> i = a.iterator();
        Iterator<?> j = b.iterator();
        while (i.hasNext()) {
            if (!jsonEquals(i.next(), j.next())) {
                return false;
            }
        }
        return true;
    }

    private static boolean mapEquals(Map<?, ?> a, Map<?, ?> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (Map.Entry<?, ?> entry : a.entrySet()) {
            if (!b.containsKey(entry.getKey()) || !jsonEquals(entry.getValue(), b.get(entry.getKey()))) {
                return false;
            }
        }
        return true;
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
