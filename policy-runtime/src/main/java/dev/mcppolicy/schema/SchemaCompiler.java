package dev.mcppolicy.schema;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.mcppolicy.json.JsonPointers;
import dev.mcppolicy.json.JsonValues;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a schema document into {@link Subschema} nodes, each problem reported at its JSON Pointer. Every
 * subschema is compiled once, where it stands (under {@code $defs} and {@code definitions} too); a
 * {@code $ref} is then linked to the node compiled at the place it points to ({@link References}), so
 * compiling recurses only as deep as the document nests, never along a reference.
 */
final class SchemaCompiler {
    private static final Set<String> TYPE_NAMES = Set.of("string", "number", "integer", "boolean", "object", "array", "null");

    private final boolean strict;
    private final JsonSchema.Problems problems;
    private final Map<String, Subschema> byPointer = new LinkedHashMap<>();
    private final List<References.Pending> references = new ArrayList<>();
    /** How many subschemas with their own {@code $id} hold the one being compiled, itself included. */
    private int embeddedIds;

    SchemaCompiler(boolean strict, JsonSchema.Problems problems) {
        this.strict = strict;
        this.problems = problems;
    }

    /** The root's node, every {@code $ref} linked and every reference loop reported. */
    Subschema compileDocument(Object schema) {
        Subschema root = compile(schema, "", 1);
        References.link(references, byPointer, problems);
        return root;
    }

    boolean usesReferences() {
        return !references.isEmpty();
    }

    /** {@code depth}: how many objects and arrays hold {@code schema}, itself included when it is an object. */
    private Subschema compile(Object schema, String at, int depth) {
        Subschema node = new Subschema();
        if (depth > JsonSchema.MAX_DEPTH) {
            problems.report(at, "the schema nests more than " + JsonSchema.MAX_DEPTH + " levels deep here");
            node.constant = Boolean.FALSE;
            return node;
        }
        byPointer.put(at, node);
        if (schema instanceof Boolean) {
            node.constant = (Boolean) schema;
            return node;
        }
        if (!(schema instanceof Map)) {
            problems.report(at, "a schema must be an object or a boolean, got " + JsonValues.typeName(schema));
            node.constant = Boolean.TRUE;
            return node;
        }
        Map<?, ?> keywords = (Map<?, ?>) schema;
        boolean embedded = !at.isEmpty() && keywords.containsKey("$id");
        if (embedded) {
            embeddedIds++;
        }
        Gathered gathered = new Gathered();
        for (Map.Entry<?, ?> entry : keywords.entrySet()) {
            String keyword = String.valueOf(entry.getKey());
            keyword(node, gathered, keyword, entry.getValue(), at + "/" + JsonPointers.escape(keyword), depth);
        }
        gathered.applyTo(node, at);
        if (embedded) {
            embeddedIds--;
        }
        return node;
    }

    private void keyword(Subschema node, Gathered gathered, String keyword, Object value, String at, int depth) {
        switch (keyword) {
            case "type": type(node, value, at); break;
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
            case "minLength": node.minLength = count(value, at); break;
            case "maxLength": node.maxLength = count(value, at); break;
            case "pattern":
                node.pattern = regex(value, at);
                node.patternText = node.pattern == null ? null : (String) value;
                break;
            case "minimum": node.minimum = number(value, at); break;
            case "maximum": node.maximum = number(value, at); break;
            case "exclusiveMinimum": node.exclusiveMinimum = number(value, at); break;
            case "exclusiveMaximum": node.exclusiveMaximum = number(value, at); break;
            case "multipleOf": node.multipleOf = positive(value, at); break;
            case "properties": properties(node, value, at, depth); break;
            case "required": required(node, value, at); break;
            case "additionalProperties": additionalProperties(node, value, at, depth); break;
            case "patternProperties": patternProperties(node, value, at, depth); break;
            case "propertyNames": node.propertyNames = compile(value, at, depth + 1); break;
            case "minProperties": node.minProperties = count(value, at); break;
            case "maxProperties": node.maxProperties = count(value, at); break;
            case "dependentRequired": dependentRequired(gathered, value, at); break;
            case "dependentSchemas": gathered.addDependentSchemas(schemas(value, at, depth, "expected an object of schemas")); break;
            case "items":
                if (!strict && value instanceof List) {
                    gathered.tuple = schemaArray(value, at, depth, false);
                } else {
                    node.items = compile(value, at, depth + 1);
                }
                break;
            case "prefixItems": node.prefixItems = orNone(schemaArray(value, at, depth, true)); break;
            case "minItems": node.minItems = count(value, at); break;
            case "maxItems": node.maxItems = count(value, at); break;
            case "uniqueItems": node.uniqueItems = flag(value, at); break;
            case "contains": node.contains = compile(value, at, depth + 1); break;
            case "minContains": node.minContains = count(value, at); break;
            case "maxContains": node.maxContains = count(value, at); break;
            case "allOf": node.allOf = schemaArray(value, at, depth, true); break;
            case "anyOf": node.anyOf = schemaArray(value, at, depth, true); break;
            case "oneOf": node.oneOf = schemaArray(value, at, depth, true); break;
            case "not": node.not = compile(value, at, depth + 1); break;
            case "if": node.ifSchema = compile(value, at, depth + 1); break;
            case "then": node.thenSchema = compile(value, at, depth + 1); break;
            case "else": node.elseSchema = compile(value, at, depth + 1); break;
            case "$ref": reference(node, value, at); break;
            case "$defs":
            case "definitions":
                schemas(value, at, depth, "expected an object of schemas");
                break;
            case "additionalItems":
                if (strict) {
                    unknown(keyword, at);
                } else {
                    gathered.additionalItems = compile(value, at, depth + 1);
                }
                break;
            case "dependencies":
                if (strict) {
                    unknown(keyword, at);
                } else {
                    dependencies(gathered, value, at, depth);
                }
                break;
            default: unknown(keyword, at);
        }
    }

    private void unknown(String keyword, String at) {
        if (Keywords.ANNOTATIONS.contains(keyword)) {
            return;
        }
        if (strict) {
            problems.report(at, "unsupported schema keyword '" + keyword + "'; supported: " + String.join(", ", Keywords.SUPPORTED));
        } else if (Keywords.refusesToolSchema(keyword)) {
            problems.report(at, "keyword '" + JsonSchema.shown(keyword) + "' is not supported, so the arguments cannot be validated");
        }
    }

    private void reference(Subschema node, Object value, String at) {
        if (!(value instanceof String)) {
            problems.report(at, "expected a reference like \"#/$defs/name\"");
        } else if (embeddedIds > 0) {
            problems.report(at, "a $ref inside a subschema with its own $id is not supported: the $id changes what it refers to");
        } else {
            references.add(new References.Pending(node, (String) value, at));
        }
    }

    /** Each subschema of an array ({@code allOf}, {@code prefixItems}, ...), or {@code null} when it is not one. */
    private Subschema[] schemaArray(Object value, String at, int depth, boolean nonEmpty) {
        if (!(value instanceof List) || nonEmpty && ((List<?>) value).isEmpty()) {
            problems.report(at, nonEmpty ? "expected a non-empty array of schemas" : "expected an array of schemas");
            return null;
        }
        List<?> list = (List<?>) value;
        Subschema[] compiled = new Subschema[list.size()];
        for (int i = 0; i < compiled.length; i++) {
            compiled[i] = compile(list.get(i), at + "/" + i, depth + 2);
        }
        return compiled;
    }

    /** Each subschema of an object by name ({@code properties}, {@code $defs}, ...), or {@code null} when it is not one. */
    private Map<String, Subschema> schemas(Object value, String at, int depth, String expected) {
        if (!(value instanceof Map)) {
            problems.report(at, expected);
            return null;
        }
        Map<String, Subschema> compiled = new LinkedHashMap<>();
        ((Map<?, ?>) value).forEach((name, schema) ->
                compiled.put(String.valueOf(name), compile(schema, at + "/" + JsonPointers.escape(String.valueOf(name)), depth + 2)));
        return compiled;
    }

    private static Subschema[] orNone(Subschema[] schemas) {
        return schemas != null ? schemas : new Subschema[0];
    }

    private void properties(Subschema node, Object value, String at, int depth) {
        Map<String, Subschema> properties = schemas(value, at, depth, "expected an object of property schemas");
        if (properties != null) {
            node.properties = properties;
        }
    }

    private void required(Subschema node, Object value, String at) {
        String[] names = names(value, at);
        if (names != null) {
            node.required = names;
        }
    }

    /** Compiled even when {@code false} or {@code true}, so that a {@code $ref} may point at it. */
    private void additionalProperties(Subschema node, Object value, String at, int depth) {
        Subschema additional = compile(value, at, depth + 1);
        if (value instanceof Boolean) {
            node.additionalAllowed = (Boolean) value;
        } else {
            node.additional = additional;
        }
    }

    private void patternProperties(Subschema node, Object value, String at, int depth) {
        Map<String, Subschema> byPattern = schemas(value, at, depth, "expected an object of schemas by regular expression");
        if (byPattern == null) {
            return;
        }
        List<Pattern> patterns = new ArrayList<>();
        List<Subschema> schemas = new ArrayList<>();
        byPattern.forEach((text, schema) -> {
            Pattern pattern = regex(text, at + "/" + JsonPointers.escape(text));
            if (pattern != null) {
                patterns.add(pattern);
                schemas.add(schema);
            }
        });
        node.propertyPatterns = patterns.toArray(new Pattern[0]);
        node.patternProperties = schemas.toArray(new Subschema[0]);
    }

    private void dependentRequired(Gathered gathered, Object value, String at) {
        if (!(value instanceof Map)) {
            problems.report(at, "expected an object of arrays of property names");
            return;
        }
        ((Map<?, ?>) value).forEach((name, needed) -> {
            String[] names = names(needed, at + "/" + JsonPointers.escape(String.valueOf(name)));
            if (names != null) {
                gathered.addDependentRequired(String.valueOf(name), names);
            }
        });
    }

    /** Draft-07's {@code dependencies}: an array is a {@code dependentRequired} entry, a schema a {@code dependentSchemas} one. */
    private void dependencies(Gathered gathered, Object value, String at, int depth) {
        if (!(value instanceof Map)) {
            problems.report(at, "expected an object of arrays of property names or schemas");
            return;
        }
        ((Map<?, ?>) value).forEach((key, dependency) -> {
            String name = String.valueOf(key);
            String where = at + "/" + JsonPointers.escape(name);
            if (dependency instanceof List) {
                String[] names = names(dependency, where);
                if (names != null) {
                    gathered.addDependentRequired(name, names);
                }
            } else {
                gathered.addDependentSchemas(Map.of(name, compile(dependency, where, depth + 2)));
            }
        });
    }

    private static List<Object> nullSafe(List<?> values) {
        List<Object> copy = new ArrayList<>(values.size());
        for (Object value : values) {
            copy.add(value == null ? Subschema.NullValue.INSTANCE : value);
        }
        return copy;
    }

    private void type(Subschema node, Object value, String at) {
        List<?> names = value instanceof List ? (List<?>) value : Collections.singletonList(value);
        int types = 0;
        for (Object name : names) {
            if (!(name instanceof String) || !TYPE_NAMES.contains(name)) {
                problems.report(at, "unknown type " + name + "; expected one of string, number, integer, boolean, object, array, null");
                continue;
            }
            switch ((String) name) {
                case "string": types |= Subschema.T_STRING; break;
                case "number": types |= Subschema.T_NUMBER; break;
                case "integer": types |= Subschema.T_INTEGER; break;
                case "boolean": types |= Subschema.T_BOOLEAN; break;
                case "object": types |= Subschema.T_OBJECT; break;
                case "array": types |= Subschema.T_ARRAY; break;
                default: types |= Subschema.T_NULL;
            }
        }
        node.types = types;
        node.typeText = names.size() == 1 ? String.valueOf(names.get(0)) : "one of " + names;
    }

    private String[] names(Object value, String at) {
        if (!(value instanceof List) || !((List<?>) value).stream().allMatch(String.class::isInstance)) {
            problems.report(at, "expected an array of property names");
            return null;
        }
        return ((List<?>) value).toArray(new String[0]);
    }

    private Pattern regex(Object value, String at) {
        if (!(value instanceof String)) {
            problems.report(at, "expected a regular expression string");
            return null;
        }
        String text = (String) value;
        if (text.length() > JsonSchema.MAX_PATTERN_LENGTH) {
            problems.report(at, "a regular expression may be at most " + JsonSchema.MAX_PATTERN_LENGTH + " characters long, got "
                    + text.length());
            return null;
        }
        try {
            return Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            problems.report(at, "invalid regular expression: " + e.getDescription());
            return null;
        }
    }

    private Number number(Object value, String at) {
        if (value instanceof Number) {
            return (Number) value;
        }
        problems.report(at, "expected a number");
        return null;
    }

    /** A finite number above 0 ({@code multipleOf}); NaN compares as no number at all. */
    private Number positive(Object value, String at) {
        if (value instanceof Number && JsonValues.compareNumbers((Number) value, 0) > 0
                && !((value instanceof Double || value instanceof Float) && Double.isInfinite(((Number) value).doubleValue()))) {
            return (Number) value;
        }
        problems.report(at, "expected a number greater than 0");
        return null;
    }

    private boolean flag(Object value, String at) {
        if (value instanceof Boolean) {
            return (Boolean) value;
        }
        problems.report(at, "expected true or false");
        return false;
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

    /**
     * What a schema's keywords say only together, gathered while they are read in any order: draft-07's
     * {@code items} array with its {@code additionalItems}, and the dependencies of one or two keywords.
     */
    private final class Gathered {
        Subschema[] tuple;
        Subschema additionalItems;
        final List<String> requiredBy = new ArrayList<>();
        final List<String[]> requiredNames = new ArrayList<>();
        final List<String> schemaBy = new ArrayList<>();
        final List<Subschema> dependentSchemas = new ArrayList<>();

        void addDependentRequired(String name, String[] names) {
            requiredBy.add(name);
            requiredNames.add(names);
        }

        void addDependentSchemas(Map<String, Subschema> schemas) {
            if (schemas != null) {
                schemas.forEach((name, schema) -> {
                    schemaBy.add(name);
                    dependentSchemas.add(schema);
                });
            }
        }

        void applyTo(Subschema node, String at) {
            if (tuple != null) {
                if (node.prefixItems.length > 0) {
                    problems.report(at + "/items", "an array of items cannot be combined with prefixItems");
                } else {
                    node.prefixItems = tuple;
                    node.items = additionalItems;
                }
            }
            if (!requiredBy.isEmpty()) {
                node.dependentNames = requiredBy.toArray(new String[0]);
                node.dependentRequired = requiredNames.toArray(new String[0][]);
            }
            if (!schemaBy.isEmpty()) {
                node.dependentSchemaNames = schemaBy.toArray(new String[0]);
                node.dependentSchemas = dependentSchemas.toArray(new Subschema[0]);
            }
        }
    }
}
