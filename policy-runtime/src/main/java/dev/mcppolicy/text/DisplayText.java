package dev.mcppolicy.text;

/**
 * Untrusted text (tool names, session and client ids, argument keys, reasons) made safe to show on one
 * line: in the decision log line, the audit file and the message a denied caller reads.
 *
 * <p>A code point is <em>unsafe</em> when it could break the line or change how the rest of the line
 * looks: C0 controls, DEL, C1 controls (U+0080-U+009F, NEL among them), U+2028 LINE SEPARATOR, U+2029
 * PARAGRAPH SEPARATOR, every Unicode format character (category Cf: the bidi embeddings and overrides
 * U+202A-U+202E, the isolates U+2066-U+2069, the marks U+200E, U+200F and U+061C, zero-width characters,
 * U+FEFF, the tag characters U+E0001-U+E007F, ...), code points this JVM's Unicode tables leave
 * unassigned (a newer Unicode may make them format characters) and lone surrogates. Each UTF-16 unit of
 * an unsafe code point is written as the JSON escape <code>&#92;uXXXX</code> ({@code \n}, {@code \r} and
 * {@code \t} in their short forms), so escaped text read back as a JSON string is the original.
 *
 * <p>A capped text keeps its first {@code cap} UTF-16 chars (one fewer rather than split a surrogate
 * pair) and ends with a marker saying how many chars were cut: {@code aaaa…(+9984 chars)}.
 */
public final class DisplayText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private DisplayText() {
    }

    /** Whether {@code codePoint} must be escaped to keep a line one line that looks as it reads. */
    public static boolean isUnsafe(int codePoint) {
        switch (Character.getType(codePoint)) {
            case Character.CONTROL:
            case Character.FORMAT:
            case Character.LINE_SEPARATOR:
            case Character.PARAGRAPH_SEPARATOR:
            case Character.SURROGATE:
            case Character.UNASSIGNED:
                return true;
            default:
                return false;
        }
    }

    /**
     * Appends {@code text} as it may stand between two {@code quote} characters: the quote and the
     * backslash escaped with a backslash, unsafe code points as <code>&#92;uXXXX</code>, cut after {@code cap}
     * chars with the marker. With {@code quote == '"'} and no cut the result is the body of a JSON string.
     */
    public static void appendQuoted(String text, char quote, int cap, StringBuilder out) {
        int kept = keptLength(text, cap);
        for (int i = 0; i < kept; ) {
            char c = text.charAt(i);
            if (c > 0x1f && c < 0x7f && c != quote && c != '\\') {
                out.append(c);
                i++;
                continue;
            }
            int codePoint = text.codePointAt(i);
            int units = Character.charCount(codePoint);
            if (codePoint == quote || codePoint == '\\') {
                out.append('\\').append((char) codePoint);
            } else if (codePoint == '\n') {
                out.append("\\n");
            } else if (codePoint == '\r') {
                out.append("\\r");
            } else if (codePoint == '\t') {
                out.append("\\t");
            } else if (isUnsafe(codePoint)) {
                escape(text, i, units, out);
            } else {
                out.append(text, i, i + units);
            }
            i += units;
        }
        appendMarker(text, kept, out);
    }

    /**
     * Appends JSON text with its unsafe code points escaped as <code>&#92;uXXXX</code>. Structural JSON
     * characters are ASCII, so unsafe ones can only stand inside strings, where the escape means the
     * same: valid JSON stays valid JSON with the same value.
     */
    public static void appendJsonText(String json, StringBuilder out) {
        for (int i = 0; i < json.length(); ) {
            char c = json.charAt(i);
            if (c > 0x1f && c < 0x7f) {
                out.append(c);
                i++;
                continue;
            }
            int codePoint = json.codePointAt(i);
            int units = Character.charCount(codePoint);
            if (isUnsafe(codePoint)) {
                escape(json, i, units, out);
            } else {
                out.append(json, i, i + units);
            }
            i += units;
        }
    }

    /** How many leading chars of {@code text} a cap of {@code cap} keeps, never splitting a surrogate pair. */
    private static int keptLength(String text, int cap) {
        if (text.length() <= cap) {
            return text.length();
        }
        boolean splitsPair = cap > 0 && Character.isHighSurrogate(text.charAt(cap - 1))
                && Character.isLowSurrogate(text.charAt(cap));
        return splitsPair ? cap - 1 : cap;
    }

    private static void appendMarker(String text, int kept, StringBuilder out) {
        if (kept < text.length()) {
            out.append("\u2026(+").append(text.length() - kept).append(" chars)");
        }
    }

    private static void escape(String text, int at, int units, StringBuilder out) {
        for (int j = at; j < at + units; j++) {
            char c = text.charAt(j);
            out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xF]).append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
        }
    }
}
