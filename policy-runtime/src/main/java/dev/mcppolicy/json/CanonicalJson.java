package dev.mcppolicy.json;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes JSON-like values as canonical JSON: object keys sorted, no whitespace, numbers in their
 * shortest exact form. Equal arguments always give the same text, so their SHA-256 identifies them.
 */
public final class CanonicalJson {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CanonicalJson() {
    }

    public static String write(Object value) {
        StringBuilder out = new StringBuilder(64);
        write(value, out);
        return out.toString();
    }

    /** Hex SHA-256 of the canonical JSON of {@code value}. */
    public static String sha256(Object value) {
        return sha256Hex(write(value).getBytes(StandardCharsets.UTF_8));
    }

    public static String sha256Hex(byte[] bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            char[] hex = new char[digest.length * 2];
            for (int i = 0; i < digest.length; i++) {
                hex[2 * i] = HEX[(digest[i] >> 4) & 0xF];
                hex[2 * i + 1] = HEX[digest[i] & 0xF];
            }
            return new String(hex);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    public static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            quote((String) value, out);
        } else if (value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Number) {
            number((Number) value, out);
        } else if (value instanceof Map) {
            object((Map<?, ?>) value, out);
        } else if (value instanceof List) {
            array((List<?>) value, out);
        } else if (value instanceof Object[]) {
            array(List.of((Object[]) value), out);
        } else {
            quote(value.toString(), out);
        }
    }

    /** Appends {@code text} as a JSON string literal. */
    public static void quote(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                default:
                    if (c < 0x20 || Character.isSurrogate(c) && !isPaired(text, i)) {
                        out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xF])
                                .append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    /**
     * Whether the surrogate at {@code i} is half of a pair. A lone one has no UTF-8 form: left raw, it
     * would hash as '?' and collide with a real '?', so it is escaped instead.
     */
    private static boolean isPaired(String text, int i) {
        char c = text.charAt(i);
        return Character.isHighSurrogate(c)
                ? i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))
                : i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }

    /**
     * Numbers equal by value ({@link JsonValues#jsonEquals}) write the same text whatever their Java type:
     * whole numbers below 1e21 in plain digits, others in the shortest exact form.
     */
    private static void number(Number number, StringBuilder out) {
        BigDecimal decimal = JsonValues.toBigDecimal(number);
        if (decimal == null) {
            out.append("null");
            return;
        }
        decimal = decimal.stripTrailingZeros();
        out.append(decimal.scale() <= 0 && decimal.precision() - decimal.scale() <= 21
                ? decimal.toBigInteger().toString() : decimal.toString());
    }

    private static void object(Map<?, ?> map, StringBuilder out) {
        TreeMap<String, Object> sorted = new TreeMap<>();
        map.forEach((key, item) -> sorted.put(String.valueOf(key), item));
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, Object> entry : sorted.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            quote(entry.getKey(), out);
            out.append(':');
            write(entry.getValue(), out);
        }
        out.append('}');
    }

    private static void array(List<?> list, StringBuilder out) {
        out.append('[');
        for (int i = 0; i < list.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            write(list.get(i), out);
        }
        out.append(']');
    }
}
