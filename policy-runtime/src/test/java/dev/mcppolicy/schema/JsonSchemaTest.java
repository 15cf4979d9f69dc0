package dev.mcppolicy.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonSchemaTest {

    // --- type ---

    @Test
    void checksEachType() {
        assertThat(violation(Map.of("type", "string"), "x")).isNull();
        assertThat(violation(Map.of("type", "string"), 1)).isEqualTo("at /: expected string, got number");
        assertThat(violation(Map.of("type", "number"), 1.5)).isNull();
        assertThat(violation(Map.of("type", "number"), "1.5")).isEqualTo("at /: expected number, got string");
        assertThat(violation(Map.of("type", "boolean"), false)).isNull();
        assertThat(violation(Map.of("type", "boolean"), "false")).isEqualTo("at /: expected boolean, got string");
        assertThat(violation(Map.of("type", "object"), Map.of())).isNull();
        assertThat(violation(Map.of("type", "object"), List.of())).isEqualTo("at /: expected object, got array");
        assertThat(violation(Map.of("type", "array"), List.of())).isNull();
        assertThat(violation(Map.of("type", "array"), Map.of())).isEqualTo("at /: expected array, got object");
        assertThat(violation(Map.of("type", "null"), null)).isNull();
        assertThat(violation(Map.of("type", "null"), 0)).isEqualTo("at /: expected null, got number");
        assertThat(violation(Map.of("type", "string"), null)).isEqualTo("at /: expected string, got null");
    }

    @Test
    void countsAWholeNumberOfAnyJavaTypeAsAnInteger() {
        Map<String, Object> integer = Map.of("type", "integer");

        assertThat(violation(integer, 3)).isNull();
        assertThat(violation(integer, 3L)).isNull();
        assertThat(violation(integer, 3.0)).isNull();
        assertThat(violation(integer, new BigDecimal("3.00"))).isNull();
        assertThat(violation(integer, new BigInteger("123456789012345678901234567890"))).isNull();
        assertThat(violation(integer, 3.5)).isEqualTo("at /: expected integer, got number");
        assertThat(violation(integer, new BigDecimal("3.01"))).isEqualTo("at /: expected integer, got number");
        assertThat(violation(Map.of("type", "number"), 3)).isNull();
    }

    @Test
    void acceptsAnyOfSeveralTypes() {
        Map<String, Object> schema = Map.of("type", List.of("string", "null"));

        assertThat(violation(schema, "x")).isNull();
        assertThat(violation(schema, null)).isNull();
        assertThat(violation(schema, 1)).isEqualTo("at /: expected one of [string, null], got number");
    }

    // --- enum and const ---

    @Test
    void enumAllowsOnlyTheListedValuesIncludingNull() {
        Map<String, Object> schema = Map.of("enum", Arrays.asList("dev", 2, null, List.of(1)));

        assertThat(violation(schema, "dev")).isNull();
        assertThat(violation(schema, 2.0)).isNull();
        assertThat(violation(schema, null)).isNull();
        assertThat(violation(schema, List.of(1L))).isNull();
        assertThat(violation(schema, "prod")).isEqualTo("at /: must be one of the schema's enum values");
        assertThat(violation(schema, "null")).isEqualTo("at /: must be one of the schema's enum values");
        assertThat(violation(Map.of("enum", List.of("a")), null)).isEqualTo("at /: must be one of the schema's enum values");
    }

    @Test
    void constAllowsOnlyItsValue() {
        assertThat(violation(Map.of("const", "dev"), "dev")).isNull();
        assertThat(violation(Map.of("const", 1), 1.0)).isNull();
        assertThat(violation(Map.of("const", "dev"), "prod")).isEqualTo("at /: must equal the schema's const value");
        Map<String, Object> constNull = new HashMap<>();
        constNull.put("const", null);
        assertThat(violation(constNull, null)).isNull();
        assertThat(violation(constNull, "x")).isEqualTo("at /: must equal the schema's const value");
    }

    // --- strings ---

    @Test
    void boundsStringLengthInCodePoints() {
        Map<String, Object> schema = Map.of("minLength", 2, "maxLength", 3);

        assertThat(violation(schema, "ab")).isNull();
        assertThat(violation(schema, "abc")).isNull();
        assertThat(violation(schema, "a")).isEqualTo("at /: must be at least 2 characters long");
        assertThat(violation(schema, "abcd")).isEqualTo("at /: must be at most 3 characters long");
        assertThat(violation(schema, "\uD83D\uDE00\uD83D\uDE00")).isNull();
        assertThat(violation(Map.of("maxLength", 1), "\uD83D\uDE00")).isNull();
    }

    @Test
    void patternSearchesUnlessAnchored() {
        assertThat(violation(Map.of("pattern", "b"), "abc")).isNull();
        assertThat(violation(Map.of("pattern", "^b"), "abc")).isEqualTo("at /: does not match pattern ^b");
        assertThat(violation(Map.of("pattern", "^[a-z]+$"), "abc")).isNull();
        assertThat(violation(Map.of("pattern", "^[a-z]+$"), "abc1")).isEqualTo("at /: does not match pattern ^[a-z]+$");
    }

    @Test
    void patternStaysLinearOnHostileInput() {
        assertThat(violation(Map.of("pattern", "^(a+)+$"), "a".repeat(10_000) + "!"))
                .isEqualTo("at /: does not match pattern ^(a+)+$");
    }

    @Test
    void stringKeywordsIgnoreOtherTypes() {
        assertThat(violation(Map.of("minLength", 5, "pattern", "^x"), 1)).isNull();
        assertThat(violation(Map.of("minimum", 5), "1")).isNull();
        assertThat(violation(Map.of("minItems", 5, "required", List.of("a")), "x")).isNull();
    }

    // --- numbers ---

    @Test
    void boundsNumbersInclusively() {
        Map<String, Object> schema = Map.of("minimum", 1, "maximum", 10.5);

        assertThat(violation(schema, 1)).isNull();
        assertThat(violation(schema, new BigDecimal("10.5"))).isNull();
        assertThat(violation(schema, 0.999)).isEqualTo("at /: must be >= 1");
        assertThat(violation(schema, 11L)).isEqualTo("at /: must be <= 10.5");
    }

    @Test
    void boundsNumbersExclusively() {
        Map<String, Object> schema = Map.of("exclusiveMinimum", 0, "exclusiveMaximum", 100);

        assertThat(violation(schema, 0.001)).isNull();
        assertThat(violation(schema, 0)).isEqualTo("at /: must be > 0");
        assertThat(violation(schema, 100.0)).isEqualTo("at /: must be < 100");
        assertThat(violation(schema, BigInteger.valueOf(99))).isNull();
    }

    // --- objects ---

    @Test
    void requiresProperties() {
        Map<String, Object> schema = Map.of("type", "object", "required", List.of("path", "mode"));

        assertThat(violation(schema, Map.of("path", "/tmp", "mode", "r"))).isNull();
        assertThat(violation(schema, Map.of("path", "/tmp"))).isEqualTo("at /: required property 'mode' is missing");
        Map<String, Object> withNull = new HashMap<>();
        withNull.put("path", null);
        withNull.put("mode", null);
        assertThat(violation(schema, withNull)).isNull();
    }

    @Test
    void pointsAtTheNestedPropertyOrItemThatFails() {
        Map<String, Object> schema = Map.of("type", "object", "properties", Map.of(
                "options", Map.of("type", "object", "properties", Map.of(
                        "tags", Map.of("type", "array", "items", Map.of("type", "string", "maxLength", 3)),
                        "a/b~c", Map.of("type", "integer")))));

        assertThat(violation(schema, Map.of("options", Map.of("tags", List.of("ok", "too long")))))
                .isEqualTo("at /options/tags/1: must be at most 3 characters long");
        assertThat(violation(schema, Map.of("options", Map.of("tags", List.of("ok", 7)))))
                .isEqualTo("at /options/tags/1: expected string, got number");
        assertThat(violation(schema, Map.of("options", Map.of("a/b~c", "x"))))
                .isEqualTo("at /options/a~1b~0c: expected integer, got string");
        assertThat(violation(schema, Map.of("options", Map.of("tags", List.of("ok"), "other", 1)))).isNull();
    }

    @Test
    void additionalPropertiesFalseRejectsUnlistedProperties() {
        Map<String, Object> schema = Map.of("properties", Map.of("path", Map.of("type", "string")),
                "additionalProperties", false);

        assertThat(violation(schema, Map.of("path", "x"))).isNull();
        assertThat(violation(schema, ordered("path", "x", "recursive", true)))
                .isEqualTo("at /: property 'recursive' is not allowed");
    }

    @Test
    void additionalPropertiesSchemaChecksUnlistedProperties() {
        Map<String, Object> schema = Map.of("properties", Map.of("path", Map.of("type", "string")),
                "additionalProperties", Map.of("type", "boolean"));

        assertThat(violation(schema, Map.of("path", "x", "recursive", true))).isNull();
        assertThat(violation(schema, Map.of("path", "x", "depth", 3))).isEqualTo("at /depth: expected boolean, got number");
        assertThat(violation(schema, Map.of("path", 3))).isEqualTo("at /path: expected string, got number");
    }

    // --- arrays ---

    @Test
    void boundsArraySizeAndChecksEveryItem() {
        Map<String, Object> schema = Map.of("minItems", 1, "maxItems", 2, "items", Map.of("type", "integer"));

        assertThat(violation(schema, List.of(1, 2))).isNull();
        assertThat(violation(schema, List.of())).isEqualTo("at /: must have at least 1 items");
        assertThat(violation(schema, List.of(1, 2, 3))).isEqualTo("at /: must have at most 2 items");
        assertThat(violation(schema, List.of(1, 2.5))).isEqualTo("at /1: expected integer, got number");
    }

    // --- boolean schemas ---

    @Test
    void trueAllowsEverythingAndFalseNothing() {
        assertThat(violation(true, Map.of("anything", List.of(1)))).isNull();
        assertThat(violation(false, Map.of())).isEqualTo("at /: no value is allowed here");
        assertThat(violation(Map.of("properties", Map.of("debug", false)), Map.of("debug", true)))
                .isEqualTo("at /debug: no value is allowed here");
        assertThat(violation(Map.of("properties", Map.of("debug", false)), Map.of())).isNull();
        assertThat(violation(Map.of("items", false), List.of())).isNull();
        assertThat(violation(Map.of("items", false), List.of(1))).isEqualTo("at /0: no value is allowed here");
        assertThat(violation(Map.of("additionalProperties", true), Map.of("x", 1))).isNull();
    }

    // --- never the value ---

    @Test
    void neverPutsTheArgumentValueInAViolation() {
        String secret = "sk-live-0123456789";
        Map<String, Object> schema = Map.of("type", "object", "properties", Map.of("token", Map.of(
                "type", "string", "maxLength", 4, "pattern", "^x", "enum", List.of("x"))),
                "additionalProperties", false);

        List<String> found = new ArrayList<>();
        found.add(violation(schema, Map.of("token", secret)));
        found.add(violation(Map.of("type", "integer"), secret));
        found.add(violation(Map.of("enum", List.of("a")), secret));
        found.add(violation(Map.of("const", "a"), secret));
        found.add(violation(Map.of("pattern", "^a"), secret));
        found.add(violation(Map.of("minLength", 100), secret));
        found.add(violation(Map.of("maximum", 1), 123456789));

        assertThat(found).doesNotContainNull().noneMatch(text -> text.contains(secret) || text.contains("123456789"));
    }

    // --- strict and lenient ---

    @Test
    void strictModeRejectsUnknownKeywordsAtTheirPointer() {
        List<String> problems = problems(Map.of("type", "object", "properties", Map.of(
                "a", Map.of("type", "string", "format", "uri", "minContains", 1))), true);

        assertThat(problems).containsExactly("/properties/a/minContains: unsupported schema keyword 'minContains'; "
                + "supported: type, properties, required, enum, const, pattern, minimum, maximum, exclusiveMinimum, "
                + "exclusiveMaximum, minLength, maxLength, items, minItems, maxItems, additionalProperties");
    }

    @ParameterizedTest
    @ValueSource(strings = {"$schema", "$id", "$comment", "title", "description", "default", "examples", "format",
        "deprecated", "readOnly", "writeOnly"})
    void strictModeAcceptsAnnotations(String keyword) {
        assertThat(problems(Map.of(keyword, "x"), true)).isEmpty();
    }

    @Test
    void lenientModeIgnoresUnknownKeywords() {
        JsonSchema schema = JsonSchema.compileLenient(Map.of("type", "object", "$defs", Map.of(),
                "properties", Map.of("n", Map.of("oneOf", List.of(), "type", "integer"))));

        assertThat(schema.firstViolation(Map.of("n", 1))).isNull();
        assertThat(schema.firstViolation(Map.of("n", "1"))).isEqualTo("at /n: expected integer, got string");
    }

    @Test
    void lenientModeStillRejectsAMalformedKnownKeyword() {
        assertThatThrownBy(() -> JsonSchema.compileLenient(Map.of("properties", Map.of("n", Map.of("minimum", "0")))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("/properties/n/minimum: expected a number");
        assertThatThrownBy(() -> JsonSchema.compileLenient(List.of()))
                .hasMessage("a schema must be an object or a boolean, got array");
    }

    @Test
    void reportsEveryMalformedKeyword() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "text");
        schema.put("properties", List.of());
        schema.put("required", List.of("a", 1));
        schema.put("enum", "a");
        schema.put("pattern", "(");
        schema.put("minimum", "0");
        schema.put("minLength", -1);
        schema.put("maxItems", 1.5);
        schema.put("items", List.of(Map.of()));
        schema.put("additionalProperties", "no");

        assertThat(problems(schema, true)).containsExactly(
                "/type: unknown type text; expected one of string, number, integer, boolean, object, array, null",
                "/properties: expected an object of property schemas",
                "/required: expected an array of property names",
                "/enum: expected an array of allowed values",
                "/pattern: invalid regular expression: missing closing )",
                "/minimum: expected a number",
                "/minLength: expected a non-negative integer",
                "/maxItems: expected a non-negative integer",
                "/items: a schema must be an object or a boolean, got array",
                "/additionalProperties: a schema must be an object or a boolean, got string");
    }

    @Test
    void aLengthBoundBeyondALongIsNoBound() {
        BigInteger huge = BigInteger.ONE.shiftLeft(64);

        assertThat(problems(Map.of("maxLength", huge, "minItems", BigInteger.ONE.shiftLeft(63)), true)).isEmpty();
        assertThat(violation(Map.of("maxLength", huge), "abc")).isNull();
        assertThat(violation(Map.of("minItems", huge), List.of(1))).isEqualTo("at /: must have at least "
                + Long.MAX_VALUE + " items");
    }

    private static String violation(Object schema, Object instance) {
        List<String> problems = new ArrayList<>();
        JsonSchema compiled = JsonSchema.compile(schema, true, (pointer, message) -> problems.add(pointer + ": " + message));
        assertThat(problems).isEmpty();
        return compiled.firstViolation(instance);
    }

    private static List<String> problems(Object schema, boolean strict) {
        List<String> problems = new ArrayList<>();
        JsonSchema.compile(schema, strict, (pointer, message) -> problems.add(pointer + ": " + message));
        return problems;
    }

    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
