package dev.mcppolicy.schema;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which keywords a schema may use: those the validator checks, the annotations it passes over, and, in
 * a tool's own schema, the unknown keywords that refuse the schema because they look like constraints.
 */
final class Keywords {
    /** Checked in a policy's schema and in a tool's; in this order in the strict-mode error message. */
    static final List<String> SUPPORTED = List.of(
            "type", "enum", "const",
            "minLength", "maxLength", "pattern",
            "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
            "properties", "required", "additionalProperties", "patternProperties", "propertyNames",
            "minProperties", "maxProperties", "dependentRequired", "dependentSchemas",
            "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains",
            "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
            "$ref", "$defs", "definitions");

    /**
     * Checked in a tool's schema only: draft-07 spellings ({@code items} as an array is the third) that a
     * policy writes as {@code prefixItems}, {@code items}, {@code dependentRequired} and {@code dependentSchemas}.
     */
    static final List<String> TOOL_SCHEMA_ONLY = List.of("additionalItems", "dependencies");

    /** Passed over in both modes: they describe a value and constrain nothing. */
    static final Set<String> ANNOTATIONS = Set.of(
            "$schema", "$id", "$comment", "title", "description", "default", "examples", "format",
            "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding");

    /** Core keywords that name places or vocabularies and check nothing; passed over in a tool's schema. */
    private static final Set<String> INERT_CORE = Set.of("$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary");

    /**
     * Constraints of other drafts and of validator extensions whose names the rules in
     * {@link #refusesToolSchema} would not catch: draft 2019-09 and 2020-12 dynamic references, draft 3's
     * {@code extends}, {@code disallow} and {@code divisibleBy}, and Ajv's {@code regexp}, {@code range},
     * {@code prohibited} and {@code select}.
     */
    private static final Set<String> KNOWN_CONSTRAINTS = Set.of(
            "$dynamicref", "$recursiveref", "extends", "disallow", "divisibleby", "regexp", "range", "prohibited", "select");
    private static final List<String> CONSTRAINT_PREFIXES = List.of(
            "min", "max", "exclusive", "unevaluated", "additional", "dependent", "pattern", "prefix", "unique",
            "contains", "format");
    private static final List<String> CONSTRAINT_SUFFIXES = List.of("of", "required", "properties", "items");

    private Keywords() {
    }

    /**
     * Whether an unknown keyword in a tool's schema refuses the schema, because it looks like it constrains
     * values and passing it over would let through what the tool's author meant to refuse: any
     * {@code $}-keyword but the inert core ones (the {@code $} names belong to JSON Schema itself), a
     * known constraint of another draft or of a validator extension, and any name that, ignoring case, is a
     * checked keyword ({@code maxlength}), starts with {@link #CONSTRAINT_PREFIXES} ({@code minDate},
     * {@code unevaluatedProperties}, {@code formatMaximum}) or ends with {@link #CONSTRAINT_SUFFIXES}
     * ({@code instanceof}, {@code deepRequired}). Vendor {@code x-} keys and other names
     * ({@code discriminator}, {@code nullable}, {@code example}, {@code enumNames}) are passed over.
     */
    static boolean refusesToolSchema(String keyword) {
        if (keyword.startsWith("x-") || INERT_CORE.contains(keyword)) {
            return false;
        }
        if (keyword.startsWith("$")) {
            return true;
        }
        String name = keyword.toLowerCase(Locale.ROOT);
        if (KNOWN_CONSTRAINTS.contains(name)) {
            return true;
        }
        for (String known : SUPPORTED) {
            if (known.equalsIgnoreCase(keyword)) {
                return true;
            }
        }
        for (String known : TOOL_SCHEMA_ONLY) {
            if (known.equalsIgnoreCase(keyword)) {
                return true;
            }
        }
        for (String prefix : CONSTRAINT_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        for (String suffix : CONSTRAINT_SUFFIXES) {
            if (name.endsWith(suffix)) {
                return true;
            }
        }
        return false;
    }
}
