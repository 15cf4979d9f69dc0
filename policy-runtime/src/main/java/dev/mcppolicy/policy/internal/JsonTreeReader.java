package dev.mcppolicy.policy.internal;

import dev.mcppolicy.json.JsonPointers;
import dev.mcppolicy.policy.PolicyError;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a JSON document (RFC 8259, nothing more: no comments, trailing commas, single quotes or {@code NaN}) into
 * {@link Node}s with the line and column each value starts at. A JSON policy is read with this alone: reading it
 * through Jackson loaded ~60 classes of the agent's shaded copy (the app's own Jackson cannot be shared) and cost a
 * cold JVM tens of milliseconds of class loading and interpreting while the app was starting (issue 16). Numbers
 * come back as Jackson's did: {@code Integer}, {@code Long} or {@code BigInteger} for whole numbers, {@code Double}
 * for the rest. Error messages name the character at fault and its position, never the text around it.
 */
final class JsonTreeReader {
    /** The longest number accepted, as Jackson's default {@code StreamReadConstraints} has it. */
    static final int MAX_NUMBER_LENGTH = 1000;

    private final String text;
    private final List<PolicyError> errors;
    private int position;
    private int line = 1;
    private int lineStart;

    JsonTreeReader(String text, List<PolicyError> errors) {
        this.text = text;
        this.errors = errors;
    }

    /** The document's root, or {@code null} with an error recorded when the text is not one well-formed JSON value. */
    Node read() {
        skipWhitespace();
        if (position == text.length()) {
            errors.add(new PolicyError("", 1, 1, "the document is empty; expected an object"));
            return null;
        }
        try {
            Node root = value("", 1);
            skipWhitespace();
            if (position < text.length()) {
                errors.add(new PolicyError("", line, column(), "unexpected content after the end of the document"));
            }
            return root;
        } catch (Malformed e) {
            errors.add(new PolicyError("", e.line, e.column, "malformed JSON: " + e.getMessage()));
            return null;
        } catch (TooDeep e) {
            return null;
        }
    }

    /** The value starting at the current position; {@code depth} counts the objects and arrays that hold it, itself included. */
    private Node value(String pointer, int depth) {
        if (position == text.length()) {
            throw malformed("unexpected end of the document: expected a value");
        }
        char c = text.charAt(position);
        if ((c == '{' || c == '[') && depth > TreeReader.MAX_DEPTH) {
            errors.add(new PolicyError(pointer, line, column(), "objects and arrays nest more than " + TreeReader.MAX_DEPTH
                    + " levels deep here; a policy needs far fewer"));
            throw new TooDeep();
        }
        switch (c) {
            case '{':
                return object(pointer, depth);
            case '[':
                return array(pointer, depth);
            case '"': {
                int startLine = line;
                int startColumn = column();
                return Node.scalar(Node.Kind.STRING, string(), startLine, startColumn);
            }
            case 't':
                return literal("true", Node.Kind.BOOLEAN, Boolean.TRUE);
            case 'f':
                return literal("false", Node.Kind.BOOLEAN, Boolean.FALSE);
            case 'n':
                return literal("null", Node.Kind.NULL, null);
            default:
                if (c == '-' || c >= '0' && c <= '9') {
                    return number();
                }
                throw malformed("unexpected " + describe(c) + ": expected a value (an object, array, string, number, true, false or null)");
        }
    }

    private Node object(String pointer, int depth) {
        int startLine = line;
        int startColumn = column();
        position++;
        Map<String, Node> fields = new LinkedHashMap<>();
        skipWhitespace();
        if (position < text.length() && text.charAt(position) == '}') {
            position++;
            return Node.object(fields, startLine, startColumn);
        }
        while (true) {
            skipWhitespace();
            if (position == text.length()) {
                throw unclosed("object", '}', startLine, startColumn);
            }
            if (text.charAt(position) != '"') {
                throw malformed("unexpected " + describe(text.charAt(position)) + ": expected a key in double quotes");
            }
            int keyLine = line;
            int keyColumn = column();
            String key = string();
            skipWhitespace();
            if (position == text.length()) {
                throw unclosed("object", '}', startLine, startColumn);
            }
            if (text.charAt(position) != ':') {
                throw malformed("unexpected " + describe(text.charAt(position)) + ": expected ':' after a key");
            }
            position++;
            skipWhitespace();
            String childPointer = pointer + "/" + JsonPointers.escape(key);
            Node child = value(childPointer, depth + 1);
            if (fields.containsKey(key)) {
                errors.add(new PolicyError(childPointer, keyLine, keyColumn,
                        "duplicate key '" + key + "' (first at line " + fields.get(key).line() + ")"));
            } else {
                fields.put(key, child);
            }
            skipWhitespace();
            if (position == text.length()) {
                throw unclosed("object", '}', startLine, startColumn);
            }
            char next = text.charAt(position++);
            if (next == '}') {
                return Node.object(fields, startLine, startColumn);
            }
            if (next != ',') {
                position--;
                throw malformed("unexpected " + describe(next) + ": expected ',' or '}' after a value in an object");
            }
        }
    }

    private Node array(String pointer, int depth) {
        int startLine = line;
        int startColumn = column();
        position++;
        List<Node> items = new ArrayList<>();
        skipWhitespace();
        if (position < text.length() && text.charAt(position) == ']') {
            position++;
            return Node.array(items, startLine, startColumn);
        }
        while (true) {
            skipWhitespace();
            if (position == text.length()) {
                throw unclosed("array", ']', startLine, startColumn);
            }
            items.add(value(pointer + "/" + items.size(), depth + 1));
            skipWhitespace();
            if (position == text.length()) {
                throw unclosed("array", ']', startLine, startColumn);
            }
            char next = text.charAt(position++);
            if (next == ']') {
                return Node.array(items, startLine, startColumn);
            }
            if (next != ',') {
                position--;
                throw malformed("unexpected " + describe(next) + ": expected ',' or ']' after a value in an array");
            }
        }
    }

    /** The string starting at the opening quote under the current position, unescaped; the position ends after its closing quote. */
    private String string() {
        int startLine = line;
        int startColumn = column();
        position++;
        StringBuilder value = null;
        int runStart = position;
        while (true) {
            if (position == text.length()) {
                throw malformed("unexpected end of the document in the string that starts at line " + startLine + ", column " + startColumn);
            }
            char c = text.charAt(position);
            if (c == '"') {
                String result = value == null ? text.substring(runStart, position) : value.append(text, runStart, position).toString();
                position++;
                return result;
            }
            if (c < 0x20) {
                throw malformed(String.format("a control character (U+%04X) in a string: write it escaped (\\n, \\t, \\u%04X)", (int) c, (int) c));
            }
            if (c != '\\') {
                position++;
                continue;
            }
            if (value == null) {
                value = new StringBuilder();
            }
            value.append(text, runStart, position);
            position++;
            if (position == text.length()) {
                throw malformed("unexpected end of the document in the string that starts at line " + startLine + ", column " + startColumn);
            }
            char escaped = text.charAt(position++);
            switch (escaped) {
                case '"': value.append('"'); break;
                case '\\': value.append('\\'); break;
                case '/': value.append('/'); break;
                case 'b': value.append('\b'); break;
                case 'f': value.append('\f'); break;
                case 'n': value.append('\n'); break;
                case 'r': value.append('\r'); break;
                case 't': value.append('\t'); break;
                case 'u':
                    value.append(unicodeEscape());
                    break;
                default:
                    position--;
                    throw malformed("unknown escape \\" + printable(escaped) + " in a string: use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t, or \\u and four hex digits");
            }
            runStart = position;
        }
    }

    private char unicodeEscape() {
        int code = 0;
        for (int i = 0; i < 4; i++) {
            int digit = position < text.length() ? Character.digit(text.charAt(position), 16) : -1;
            if (digit < 0) {
                throw malformed("expected four hexadecimal digits after \\u in a string");
            }
            code = code * 16 + digit;
            position++;
        }
        return (char) code;
    }

    private Node number() {
        int startColumn = column();
        int start = position;
        if (text.charAt(position) == '-') {
            position++;
        }
        int integerStart = position;
        int integerDigits = digits();
        if (integerDigits == 0) {
            throw malformed("expected a digit after '-' in a number");
        }
        if (integerDigits > 1 && text.charAt(integerStart) == '0') {
            throw malformedAt(integerStart, "a number with a leading zero: write it without (JSON has no octal numbers)");
        }
        boolean whole = true;
        if (position < text.length() && text.charAt(position) == '.') {
            whole = false;
            position++;
            if (digits() == 0) {
                throw malformed("expected a digit after the decimal point in a number");
            }
        }
        if (position < text.length() && (text.charAt(position) == 'e' || text.charAt(position) == 'E')) {
            whole = false;
            position++;
            if (position < text.length() && (text.charAt(position) == '+' || text.charAt(position) == '-')) {
                position++;
            }
            if (digits() == 0) {
                throw malformed("expected a digit in the exponent of a number");
            }
        }
        if (position - start > MAX_NUMBER_LENGTH) {
            throw malformedAt(start, "a number longer than " + MAX_NUMBER_LENGTH + " characters");
        }
        String literal = text.substring(start, position);
        return Node.scalar(Node.Kind.NUMBER, whole ? wholeNumber(literal, integerDigits) : (Number) Double.valueOf(literal), line, startColumn);
    }

    private static Number wholeNumber(String literal, int digits) {
        if (digits <= 18) {
            long value = Long.parseLong(literal);
            return value == (int) value ? (Number) Integer.valueOf((int) value) : (Number) Long.valueOf(value);
        }
        BigInteger value = new BigInteger(literal);
        return value.bitLength() < 64 ? (Number) Long.valueOf(value.longValue()) : value;
    }

    private int digits() {
        int start = position;
        while (position < text.length() && text.charAt(position) >= '0' && text.charAt(position) <= '9') {
            position++;
        }
        return position - start;
    }

    private Node literal(String word, Node.Kind kind, Object value) {
        int startColumn = column();
        if (!text.startsWith(word, position)) {
            // the text is not quoted back: it may be a secret pasted in the wrong place
            throw malformed("unexpected " + describe(text.charAt(position)) + ": expected a value (an object, array, string, number, true, "
                    + "false or null)");
        }
        position += word.length();
        return Node.scalar(kind, value, line, startColumn);
    }

    private void skipWhitespace() {
        while (position < text.length()) {
            char c = text.charAt(position);
            if (c == '\n') {
                newLine(position + 1);
            } else if (c == '\r') {
                if (position + 1 < text.length() && text.charAt(position + 1) == '\n') {
                    position++;
                }
                newLine(position + 1);
            } else if (c != ' ' && c != '\t') {
                return;
            }
            position++;
        }
    }

    private void newLine(int start) {
        line++;
        lineStart = start;
    }

    private int column() {
        return position - lineStart + 1;
    }

    private static String describe(char c) {
        return "character '" + printable(c) + "'";
    }

    private static String printable(char c) {
        return c < 0x20 || c == 0x7F ? String.format("\\u%04X", (int) c) : String.valueOf(c);
    }

    private Malformed unclosed(String what, char closer, int startLine, int startColumn) {
        return malformed("unexpected end of the document: expected '" + closer + "' to close the " + what + " that starts at line "
                + startLine + ", column " + startColumn);
    }

    private Malformed malformed(String message) {
        return new Malformed(message, line, column());
    }

    /** An error at an earlier position on the current line (strings and numbers never span lines). */
    private Malformed malformedAt(int at, String message) {
        return new Malformed(message, line, at - lineStart + 1);
    }

    /** Stops reading at the first thing that is not JSON; its message and position become the document's error. */
    private static final class Malformed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int line;
        final int column;

        Malformed(String message, int line, int column) {
            super(message, null, false, false);
            this.line = line;
            this.column = column;
        }
    }

    /** Stops reading at a value nested too deep; the error is already recorded. */
    private static final class TooDeep extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooDeep() {
            super(null, null, false, false);
        }
    }
}
