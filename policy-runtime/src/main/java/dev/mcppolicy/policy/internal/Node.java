package dev.mcppolicy.policy.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A JSON/YAML value with the line and column it started at: the parser's view of a policy document. */
public final class Node {
    public enum Kind { OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL }

    private final Kind kind;
    private final Object value;
    private final int line;
    private final int column;

    private Node(Kind kind, Object value, int line, int column) {
        this.kind = kind;
        this.value = value;
        this.line = line;
        this.column = column;
    }

    static Node object(Map<String, Node> fields, int line, int column) {
        return new Node(Kind.OBJECT, fields, line, column);
    }

    static Node array(List<Node> items, int line, int column) {
        return new Node(Kind.ARRAY, items, line, column);
    }

    static Node scalar(Kind kind, Object value, int line, int column) {
        return new Node(kind, value, line, column);
    }

    public Kind kind() {
        return kind;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }

    public boolean is(Kind expected) {
        return kind == expected;
    }

    @SuppressWarnings("unchecked")
    public Map<String, Node> fields() {
        return (Map<String, Node>) value;
    }

    @SuppressWarnings("unchecked")
    public List<Node> items() {
        return (List<Node>) value;
    }

    public String text() {
        return (String) value;
    }

    public Number number() {
        return (Number) value;
    }

    public boolean bool() {
        return (Boolean) value;
    }

    /** This value as plain Java: {@code Map}, {@code List}, {@code String}, {@code Number}, {@code Boolean} or null. */
    public Object toPlain() {
        switch (kind) {
            case OBJECT: {
                Map<String, Object> plain = new LinkedHashMap<>();
                fields().forEach((key, node) -> plain.put(key, node.toPlain()));
                return plain;
            }
            case ARRAY: {
                List<Object> plain = new ArrayList<>();
                items().forEach(node -> plain.add(node.toPlain()));
                return plain;
            }
            default:
                return value;
        }
    }

    /** How a value of this kind is named in error messages. */
    public String describe() {
        switch (kind) {
            case OBJECT: return "an object";
            case ARRAY: return "an array";
            case STRING: return "the string \"" + abbreviate(text()) + "\"";
            case NUMBER: return "the number " + value;
            case BOOLEAN: return value.toString();
            default: return "null";
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }
}
