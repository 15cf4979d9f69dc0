package dev.mcppolicy.condition;

import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.json.JsonValues;
import java.math.BigDecimal;

/**
 * How a condition reads one scalar argument value (a leaf) for the kind of operand it compares with:
 * as a number, as text, or as a boolean. A reading either yields a value or names why the leaf cannot be
 * read that way; the problem texts are the ones a denied caller and the log show
 * ({@code args.amount: a string that is not a number cannot be checked}).
 *
 * <p>The number reading accepts exactly the strings every common binder (Jackson, {@code Long.parseLong},
 * {@code Double.parseDouble}, JavaScript's {@code Number}, Python's {@code float}) reads as the same
 * decimal: optional surrounding whitespace (chars up to U+0020, as {@code String.trim} strips), an
 * optional sign, ASCII digits with an optional fraction and exponent ({@code 5000}, {@code " 5000 "},
 * {@code "+5e3"}, {@code ".5"}, {@code "5."}), and {@code Infinity}/{@code -Infinity}. Anything some
 * binder would read differently or not at all is not read: a leading zero ({@code "010"} is 8 to
 * {@code Integer.decode}), hex, {@code _} separators, type suffixes ({@code "5d"}), non-ASCII digits,
 * more than {@value #MAX_NUMBER_CHARS} chars (Jackson's own limit), an exponent beyond a decimal's range.
 */
final class Readings {
    /** The longest numeric string read as a number, as Jackson's {@code StreamReadConstraints} default. */
    static final int MAX_NUMBER_CHARS = 1000;

    static final String NOT_A_NUMBER = "a string that is not a number cannot be checked";
    static final String LEADING_ZERO = "a number written with a leading zero (octal to some readers) cannot be checked";
    static final String NUMBER_TOO_LONG = "a number of more than " + MAX_NUMBER_CHARS + " characters cannot be checked";
    static final String NUMBER_OUT_OF_RANGE = "a number with an exponent beyond a decimal's range cannot be checked";
    static final String NAN = "NaN cannot be checked";
    static final String BOOLEAN_NOT_A_NUMBER = "a boolean is not a number and cannot be checked";
    static final String NOT_A_BOOLEAN_STRING = "a string that is not true or false cannot be checked";
    static final String NOT_A_BOOLEAN_NUMBER = "a number other than 0 or 1 cannot be checked as a boolean";

    private Readings() {
    }

    /** The number a leaf stands for ({@code Number}), or the problem ({@code String}, one of the constants here). */
    static Object number(Object leaf) {
        if (leaf instanceof Number) {
            Number number = (Number) leaf;
            return isNaN(number) ? NAN : number;
        }
        if (leaf instanceof String) {
            return parse((String) leaf);
        }
        return BOOLEAN_NOT_A_NUMBER;
    }

    /** The text a tool binding a leaf to a {@code String} gets: the string, a number's plain text, {@code true}/{@code false}. */
    static String text(Object leaf) {
        if (leaf instanceof String) {
            return (String) leaf;
        }
        if (leaf instanceof Number) {
            return CanonicalJson.numberText((Number) leaf);
        }
        return String.valueOf(leaf);
    }

    /** The boolean a leaf stands for ({@code Boolean}), or the problem ({@code String}). */
    static Object bool(Object leaf) {
        if (leaf instanceof Boolean) {
            return leaf;
        }
        if (leaf instanceof String) {
            String text = ((String) leaf).trim();
            if (text.equalsIgnoreCase("true")) {
                return Boolean.TRUE;
            }
            return text.equalsIgnoreCase("false") ? Boolean.FALSE : NOT_A_BOOLEAN_STRING;
        }
        Number number = (Number) leaf;
        if (JsonValues.compareNumbers(number, 0) == 0) {
            return Boolean.FALSE;
        }
        return JsonValues.compareNumbers(number, 1) == 0 ? Boolean.TRUE : NOT_A_BOOLEAN_NUMBER;
    }

    private static boolean isNaN(Number number) {
        return (number instanceof Double || number instanceof Float) && Double.isNaN(number.doubleValue());
    }

    static Object parse(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && text.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && text.charAt(end - 1) <= ' ') {
            end--;
        }
        if (end - start > MAX_NUMBER_CHARS) {
            return looksNumeric(text, start, end) ? NUMBER_TOO_LONG : NOT_A_NUMBER;
        }
        int i = start;
        boolean negative = false;
        if (i < end && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            negative = text.charAt(i) == '-';
            i++;
        }
        if (text.startsWith("Infinity", i) && i + "Infinity".length() == end) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (text.startsWith("NaN", i) && i + "NaN".length() == end) {
            return NAN;
        }
        int integerStart = i;
        i = digits(text, i, end);
        int integerDigits = i - integerStart;
        int fractionDigits = 0;
        boolean fraction = i < end && text.charAt(i) == '.';
        if (fraction) {
            int fractionStart = i + 1;
            i = digits(text, fractionStart, end);
            fractionDigits = i - fractionStart;
        }
        if (integerDigits + fractionDigits == 0) {
            return NOT_A_NUMBER;
        }
        if (i < end && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
            i++;
            if (i < end && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
                i++;
            }
            int exponentStart = i;
            i = digits(text, i, end);
            if (i == exponentStart) {
                return NOT_A_NUMBER;
            }
        }
        if (i != end) {
            return NOT_A_NUMBER;
        }
        if (integerDigits > 1 && text.charAt(integerStart) == '0') {
            return LEADING_ZERO;
        }
        try {
            return new BigDecimal(text.substring(start, end));
        } catch (NumberFormatException e) {
            return NUMBER_OUT_OF_RANGE;
        }
    }

    private static int digits(String text, int from, int end) {
        int i = from;
        while (i < end && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
            i++;
        }
        return i;
    }

    /** Whether an over-long string is made of number characters only, to say which problem it has. */
    private static boolean looksNumeric(String text, int start, int end) {
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9') && c != '.' && c != '+' && c != '-' && c != 'e' && c != 'E') {
                return false;
            }
        }
        return true;
    }
}
