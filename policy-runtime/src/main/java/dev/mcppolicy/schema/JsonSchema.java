package dev.mcppolicy.schema;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.mcppolicy.json.JsonValues;
import dev.mcppolicy.json.JsonPointers;
import dev.mcppolicy.text.DisplayText;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A compiled JSON Schema of the subset the policy format supports (draft 2020-12 keywords {@code type},
 * {@code properties}, {@code required}, {@code enum}, {@code const}, {@code pattern}, {@code minimum},
 * {@code maximum}, {@code exclusiveMinimum}, {@code exclusiveMaximum}, {@code minLength},
 * {@code maxLength}, {@code items}, {@code minItems}, {@code maxItems}, {@code additionalProperties}).
 *
 * <p>Written here rather than taken from a validator library because the agent bundles it: it must
 * not bring a logging framework or reflection into the host, it must use the linear-time RE2/J for
 * {@code pattern}, and it must not allocate when a value is valid. In strict mode (policy files) any
 * other keyword is an error so that a schema never looks stricter than it is; in lenient mode (a tool's
 * own {@code inputSchema}) other keywords are ignored.
 *
 * <p>Violation messages name the instance location and the rule, never the offending value: they are
 * logged, and argument values must not be. Property names in them come from the arguments, so each is
 * shown escaped and capped as {@link DisplayText} does it ({@value #NAME_CAP} chars).
 *
 * <p>Depth. Compiling rejects a schema whose subschemas ({@code properties}, {@code items},
 * {@code additionalProperties}) nest more than {@value #MAX_DEPTH} objects and arrays deep (an error in
 * a policy; a tool's schema that {@link #compileLenient} refuses, so its calls are denied). Validation
 * recurses only along the schema, never deeper than it, so any instance, however deep, validates
 * without a deep Java stack; values inside {@code enum} and {@code const} compare iteratively.
 *
 * <p>Numbers compare by value whatever their Java type, infinities beyond every finite bound; NaN
 * satisfies no {@code minimum}, {@code maximum} or exclusive bound.
 */
public final class JsonSchema {
    /** Receives the problems found while compiling, each at a JSON Pointer relative to the schema root. */
    public interface Problems {
        void report(String pointer, String message);
    }

    private static final Set<String> ANNOTATIONS = Set.of(
            "$schema", "$id", "$comment", "title", "description", "default", "examples", "format",
            "deprecated", "readOnly", "writeOnly");
    private static final Set<String> TYPE_NAMES = Set.of("string", "number", "integer", "boolean", "object", "array", "null");

    /** The deepest nesting of objects and arrays a schema's subschemas may reach. */
    public static final int MAX_DEPTH = 64;
    /**
     * The longest regular expression a schema's {@code pattern} (and a policy's {@code regex} condition)
     * may be: RE2/J matches in linear time, but compiling takes time that grows faster than the length.
     */
    public static final int MAX_PATTERN_LENGTH = 4096;
    /** The most chars of a property name a violation message shows. */
    static final int NAME_CAP = 64;

    private final Node root;

    private JsonSchema(Node root) {
        this.root = root;
    }

    /**
     * Compiles {@code schema} (a {@code Map} or a {@code Boolean}). Problems go to {@code problems};
     * the result is only meaningful when none were reported.
     */
    public static JsonSchema compile(Object schema, boolean strict, Problems problems) {
        return new JsonSchema(new Compiler(strict, problems).compile(schema, "", 1));
    }

    /** Compiles a tool's advertised input schema leniently; throws {@link IllegalArgumentException} if unusable. */
    public static JsonSchema compileLenient(Object schema) {
        List<String> found = new ArrayList<>();
        JsonSchema compiled = compile(schema, false, (pointer, message) -> found.add(
                (pointer.isEmpty() ? "" : pointer + ": ") + message));
        if (!found.isEmpty()) {
            throw new IllegalArgumentException(found.get(0));
        }
        return compiled;
    }

    /** The first way {@code instance} breaks this schema, or {@code null} when it is valid. */
    public String firstViolation(Object instance) {
        Violation violation = root.check(instance);
        if (violation == null) {
            return null;
        }
        return "at " + (violation.pointer.length() == 0 ? "/" : violation.pointer) + ": " + violation.message;
    }

    private static final class Violation {
        private final StringBuilder pointer = new StringBuilder();
        private final String message;

        Violation(String message) {
            this.message = message;
        }

        Violation under(String token) {
            pointer.insert(0, "/" + shown(JsonPointers.escape(token)));
            return this;
        }
    }

    private static final int T_STRING = 1;
    private static final int T_NUMBER = 2;
    private static final int T_INTEGER = 4;
    private static final int T_BOOLEAN = 8;
    private static final int T_OBJECT = 16;
    private static final int T_ARRAY = 32;
    private static final int T_NULL = 64;

    private static final class Node {
        Boolean constant;
        int types;
        String typeText;
        Map<String, Node> properties = Map.of();
        String[] required = new String[0];
        List<Object> enumValues;
        boolean hasConst;
        Object constValue;
        Pattern pattern;
        String patternText;
        Number minimum;
        Number maximum;
        Number exclusiveMinimum;
        Number exclusiveMaximum;
        long minLength = -1;
        long maxLength = -1;
        Node items;
        long minItems = -1;
        long maxItems = -1;
        boolean additionalAllowed = true;
        Node additional;

        Violation check(Object value) {
            if (constant != null) {
                return constant ? null : new Violation("no value is allowed here");
            }
            if (types != 0 && (types & typeOf(value)) == 0) {
                return new Violation("expected " + typeText + ", got " + JsonValues.typeName(value));
            }
            if (enumValues != null && !contains(enumValues, value)) {
                return new Violation("must be one of the schema's enum values");
            }
            if (hasConst && !JsonValues.jsonEquals(constValue, value)) {
                return new Violation("must equal the schema's const value");
            }
            if (value instanceof String) {
                return checkString((String) value);
            }
            if (value instanceof Number) {
                return checkNumber((Number) value);
            }
            if (value instanceof Map) {
                return checkObject((Map<?, ?>) value);
            }
            if (value instanceof List) {
                return checkArray((List<?>) value);
            }
            return null;
        }

        private Violation checkString(String text) {
            if (minLength >= 0 || maxLength >= 0) {
                long length = text.codePointCount(0, text.length());
                if (minLength >= 0 && length < minLength) {
                    return new Violation("must be at least " + minLength + " characters long");
                }
                if (maxLength >= 0 && length > maxLength) {
                    return new Violation("must be at most " + maxLength + " characters long");
                }
            }
            if (pattern != null && !pattern.matcher(text).find()) {
                return new Violation("does not match pattern " + patternText);
            }
            return null;
        }

        /** NaN has no order, so it satisfies no bound: it is not {@code >= 0}, nor {@code <= 100}. */
        private Violation checkNumber(Number number) {
            if (minimum != null && !holds(JsonValues.compareNumbers(number, minimum), 0, 1)) {
                return new Violation("must be >= " + minimum);
            }
            if (maximum != null && !holds(JsonValues.compareNumbers(number, maximum), -1, 0)) {
                return new Violation("must be <= " + maximum);
            }
            if (exclusiveMinimum != null && !holds(JsonValues.compareNumbers(number, exclusiveMinimum), 1, 1)) {
                return new Violation("must be > " + exclusiveMinimum);
            }
            if (exclusiveMaximum != null && !holds(JsonValues.compareNumbers(number, exclusiveMaximum), -1, -1)) {
                return new Violation("must be < " + exclusiveMaximum);
            }
            return null;
        }

        /** Whether an order is one of the allowed signs; an unordered comparison (NaN) never is. */
        private static boolean holds(int order, int lowestSign, int highestSign) {
            return order != JsonValues.UNORDERED && Integer.signum(order) >= lowestSign && Integer.signum(order) <= highestSign;
        }

        private Violation checkObject(Map<?, ?> object) {
            for (String name : required) {
                if (!object.containsKey(name)) {
                    return new Violation("required property '" + shown(name) + "' is missing");
                }
            }
            for (Map.Entry<?, ?> entry : object.entrySet()) {
                String name = String.valueOf(entry.getKey());
                Node property = properties.get(name);
                if (property == null) {
                    if (!additionalAllowed) {
                        return new Violation("property '" + shown(name) + "' is not allowed");
                    }
                    property = additional;
                }
                if (property != null) {
                    Violation violation = property.check(entry.getValue());
                    if (violation != null) {
                        return violation.under(name);
                    }
                }
            }
            return null;
        }

        private Violation checkArray(List<?> array) {
            if (minItems >= 0 && array.size() < minItems) {
                return new Violation("must have at least " + minItems + " items");
            }
            if (maxItems >= 0 && array.size() > maxItems) {
                return new Violation("must have at most " + maxItems + " items");
            }
            if (items != null) {
                for (int i = 0; i < array.size(); i++) {
                    Violation violation = items.check(array.get(i));
                    if (violation != null) {
                        return violation.under(Integer.toString(i));
                    }
                }
            }
            return null;
        }

        private static boolean contains(List<Object> values, Object value) {
            Object probe = value == null ? NullValue.INSTANCE : value;
            for (Object candidate : values) {
                if (JsonValues.jsonEquals(candidate, probe)) {
                    return true;
                }
            }
            return false;
        }

        private static int typeOf(Object value) {
            if (value == null) {
                return T_NULL;
            }
            if (value instanceof String) {
                return T_STRING;
            }
            if (value instanceof Number) {
                return JsonValues.isIntegral((Number) value) ? T_NUMBER | T_INTEGER : T_NUMBER;
            }
            if (value instanceof Boolean) {
                return T_BOOLEAN;
            }
            if (value instanceof Map) {
                return T_OBJECT;
            }
            if (value instanceof List) {
                return T_ARRAY;
            }
            return 0;
        }
    }

    private static final class Compiler {
        private final boolean strict;
        private final Problems problems;

        Compiler(boolean strict, Problems problems) {
            this.strict = strict;
            this.problems = problems;
        }

        /** {@code depth}: how many objects and arrays hold {@code schema}, itself included when it is an object. */
        Node compile(Object schema, String at, int depth) {
            Node node = new Node();
            if (depth > MAX_DEPTH) {
                problems.report(at, "the schema nests more than " + MAX_DEPTH + " levels deep here");
                node.constant = Boolean.FALSE;
                return node;
            }
            if (schema instanceof Boolean) {
                node.constant = (Boolean) schema;
                return node;
            }
            if (!(schema instanceof Map)) {
                problems.report(at, "a schema must be an object or a boolean, got " + JsonValues.typeName(schema));
                node.constant = Boolean.TRUE;
                return node;
            }
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) schema).entrySet()) {
                String keyword = String.valueOf(entry.getKey());
                keyword(node, keyword, entry.getValue(), at + "/" + JsonPointers.escape(keyword), depth);
            }
            return node;
        }

        private void keyword(Node node, String keyword, Object value, String at, int depth) {
            switch (keyword) {
                case "type": type(node, value, at); break;
                case "properties": properties(node, value, at, depth + 1); break;
                case "required": required(node, value, at); break;
                case "enum":
                    if (value instanceof List) {
                        node.enumValues = List.copyOf(nullSafe((List<?>) value));
                    } else {
                        problems.report(at, "expected an array of allowed values");
                    }
                    break;
                case "const":
                    node.hasConst = true;
                    node.constValue = value;
                    break;
                case "pattern": pattern(node, value, at); break;
                case "minimum": node.minimum = number(value, at); break;
                case "maximum": node.maximum = number(value, at); break;
                case "exclusiveMinimum": node.exclusiveMinimum = number(value, at); break;
                case "exclusiveMaximum": node.exclusiveMaximum = number(value, at); break;
                case "minLength": node.minLength = count(value, at); break;
                case "maxLength": node.maxLength = count(value, at); break;
                case "minItems": node.minItems = count(value, at); break;
                case "maxItems": node.maxItems = count(value, at); break;
                case "items": node.items = compile(value, at, depth + 1); break;
                case "additionalProperties":
                    if (value instanceof Boolean) {
                        node.additionalAllowed = (Boolean) value;
                    } else {
                        node.additional = compile(value, at, depth + 1);
                    }
                    break;
                default:
                    if (strict && !ANNOTATIONS.contains(keyword)) {
                        problems.report(at, "unsupported schema keyword '" + keyword + "'; supported: type, properties, "
                                + "required, enum, const, pattern, minimum, maximum, exclusiveMinimum, exclusiveMaximum, "
                                + "minLength, maxLength, items, minItems, maxItems, additionalProperties");
                    }
            }
        }

        private static List<Object> nullSafe(List<?> values) {
            List<Object> copy = new ArrayList<>(values.size());
            for (Object value : values) {
                copy.add(value == null ? NullValue.INSTANCE : value);
            }
            return copy;
        }

        private void type(Node node, Object value, String at) {
            List<?> names = value instanceof List ? (List<?>) value : Collections.singletonList(value);
            int types = 0;
            for (Object name : names) {
                if (!(name instanceof String) || !TYPE_NAMES.contains(name)) {
                    problems.report(at, "unknown type " + name + "; expected one of string, number, integer, boolean, object, array, null");
                    continue;
                }
                switch ((String) name) {
                    case "string": types |= T_STRING; break;
                    case "number": types |= T_NUMBER; break;
                    case "integer": types |= T_INTEGER; break;
                    case "boolean": types |= T_BOOLEAN; break;
                    case "object": types |= T_OBJECT; break;
                    case "array": types |= T_ARRAY; break;
                    default: types |= T_NULL;
                }
            }
            node.types = types;
            node.typeText = names.size() == 1 ? String.valueOf(names.get(0)) : "one of " + names;
        }

        private void properties(Node node, Object value, String at, int depth) {
            if (!(value instanceof Map)) {
                problems.report(at, "expected an object of property schemas");
                return;
            }
            Map<String, Node> compiled = new LinkedHashMap<>();
            ((Map<?, ?>) value).forEach((name, schema) ->
                    compiled.put(String.valueOf(name), compile(schema, at + "/" + JsonPointers.escape(String.valueOf(name)), depth + 1)));
            node.properties = compiled;
        }

        private void required(Node node, Object value, String at) {
            if (!(value instanceof List) || !((List<?>) value).stream().allMatch(String.class::isInstance)) {
                problems.report(at, "expected an array of property names");
                return;
            }
            node.required = ((List<?>) value).toArray(new String[0]);
        }

        private void pattern(Node node, Object value, String at) {
            if (!(value instanceof String)) {
                problems.report(at, "expected a regular expression string");
                return;
            }
            if (((String) value).length() > MAX_PATTERN_LENGTH) {
                problems.report(at, "a regular expression may be at most " + MAX_PATTERN_LENGTH + " characters long, got "
                        + ((String) value).length());
                return;
            }
            try {
                node.pattern = Pattern.compile((String) value);
                node.patternText = (String) value;
            } catch (PatternSyntaxException e) {
                problems.report(at, "invalid regular expression: " + e.getDescription());
            }
        }

        private Number number(Object value, String at) {
            if (value instanceof Number) {
                return (Number) value;
            }
            problems.report(at, "expected a number");
            return null;
        }

        private long count(Object value, String at) {
            if (value instanceof Number && JsonValues.isIntegral((Number) value)
                    && JsonValues.compareNumbers((Number) value, 0) >= 0) {
                // Beyond a long is beyond any count; longValue() would keep only the low bits.
                Number number = (Number) value;
                return JsonValues.compareNumbers(number, Long.MAX_VALUE) > 0 ? Long.MAX_VALUE : number.longValue();
            }
            problems.report(at, "expected a non-negative integer");
            return -1;
        }
    }

    /** An argument's property name as a message may show it: escaped, and capped at {@link #NAME_CAP} chars. */
    private static String shown(String name) {
        StringBuilder text = new StringBuilder(Math.min(name.length(), NAME_CAP) + 16);
        DisplayText.appendQuoted(name, '\'', NAME_CAP, text);
        return text.toString();
    }

    /** Stands for JSON null inside immutable enum lists, which cannot hold Java null. */
    private enum NullValue { INSTANCE }
}
