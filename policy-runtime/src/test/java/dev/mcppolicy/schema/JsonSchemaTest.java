package dev.mcppolicy.schema;

import static dev.mcppolicy.schema.Schemas.json;
import static dev.mcppolicy.schema.Schemas.lenientProblem;
import static dev.mcppolicy.schema.Schemas.problems;
import static dev.mcppolicy.schema.Schemas.violation;
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

    // --- multipleOf ---

    @Test
    void multipleOfDividesExactlyInDecimal() {
        assertThat(violation(Map.of("multipleOf", 3), 9)).isNull();
        assertThat(violation(Map.of("multipleOf", 3), 10L)).isEqualTo("at /: must be a multiple of 3");
        assertThat(violation(Map.of("multipleOf", 0.1), 0.3)).as("no binary rounding").isNull();
        assertThat(violation(Map.of("multipleOf", 0.01), 19.99)).isNull();
        assertThat(violation(Map.of("multipleOf", 0.01), 0.005)).isEqualTo("at /: must be a multiple of 0.01");
        assertThat(violation(Map.of("multipleOf", 1.5), 4.5)).isNull();
        assertThat(violation(Map.of("multipleOf", 1.5), 35)).isEqualTo("at /: must be a multiple of 1.5");
        assertThat(violation(Map.of("multipleOf", 0.0001), 0.0075)).isNull();
        assertThat(violation(Map.of("multipleOf", 0.0001), 0.00751)).isEqualTo("at /: must be a multiple of 1.0E-4");
        assertThat(violation(Map.of("multipleOf", new BigDecimal("0.5")), new BigInteger("123456789012345678901234567890"))).isNull();
        assertThat(violation(Map.of("multipleOf", 0.123456789), 1e308)).isEqualTo("at /: must be a multiple of 0.123456789");
        assertThat(violation(Map.of("multipleOf", 2), 0)).isNull();
        assertThat(violation(Map.of("multipleOf", 2), -4)).isNull();
        assertThat(violation(Map.of("multipleOf", 2), "4")).isNull();
    }

    @Test
    void multipleOfMustBeAPositiveNumber() {
        assertThat(problems(Map.of("multipleOf", 0), true)).containsExactly("/multipleOf: expected a number greater than 0");
        assertThat(problems(Map.of("multipleOf", -1), true)).containsExactly("/multipleOf: expected a number greater than 0");
        assertThat(problems(Map.of("multipleOf", Double.NaN), true)).containsExactly("/multipleOf: expected a number greater than 0");
        assertThat(problems(Map.of("multipleOf", Double.POSITIVE_INFINITY), true))
                .containsExactly("/multipleOf: expected a number greater than 0");
        assertThat(problems(Map.of("multipleOf", "2"), true)).containsExactly("/multipleOf: expected a number greater than 0");
    }

    // --- more object keywords ---

    @Test
    void boundsTheNumberOfProperties() {
        Map<String, Object> schema = Map.of("minProperties", 1, "maxProperties", 2);

        assertThat(violation(schema, Map.of("a", 1))).isNull();
        assertThat(violation(schema, Map.of())).isEqualTo("at /: must have at least 1 properties");
        assertThat(violation(schema, Map.of("a", 1, "b", 2, "c", 3))).isEqualTo("at /: must have at most 2 properties");
        assertThat(violation(schema, List.of())).isNull();
    }

    @Test
    void propertyNamesChecksEachNameAsAString() {
        Map<String, Object> schema = Map.of("propertyNames", Map.of("pattern", "^[a-z_]+$", "maxLength", 8));

        assertThat(violation(schema, Map.of("path", 1, "mode_x", 2))).isNull();
        assertThat(violation(schema, Map.of("Path", 1))).isEqualTo("at /: property name 'Path' does not match propertyNames: "
                + "does not match pattern ^[a-z_]+$");
        assertThat(violation(schema, Map.of("a\n".repeat(50), 1))).isEqualTo("at /: property name '" + "a\\n".repeat(32)
                + "\u2026(+36 chars)' does not match propertyNames: must be at most 8 characters long");
        assertThat(violation(Map.of("propertyNames", false), Map.of())).isNull();
        assertThat(violation(Map.of("propertyNames", false), Map.of("a", 1))).isEqualTo("at /: property name 'a' does not match "
                + "propertyNames: no value is allowed here");
    }

    @Test
    void patternPropertiesChecksMatchingNamesAndLeavesTheRestToAdditionalProperties() {
        Map<String, Object> schema = ordered(
                "properties", Map.of("id", Map.of("type", "string")),
                "patternProperties", ordered("^n_", Map.of("type", "number"), "_id$", Map.of("type", "string")),
                "additionalProperties", false);

        assertThat(violation(schema, ordered("id", "a", "n_count", 2, "user_id", "u"))).isNull();
        assertThat(violation(schema, Map.of("n_count", "2"))).isEqualTo("at /n_count: expected number, got string");
        assertThat(violation(schema, Map.of("n_id", 2))).as("every matching pattern applies")
                .isEqualTo("at /n_id: expected string, got number");
        assertThat(violation(schema, Map.of("other", 1))).isEqualTo("at /: property 'other' is not allowed");
        assertThat(problems(Map.of("patternProperties", Map.of("(", Map.of())), true))
                .containsExactly("/patternProperties/(: invalid regular expression: missing closing )");
    }

    @Test
    void dependentRequiredAndDependentSchemasApplyWhenTheirPropertyIsPresent() {
        Map<String, Object> schema = Map.of(
                "dependentRequired", Map.of("card", List.of("cvv", "expiry")),
                "dependentSchemas", Map.of("recursive", Map.of("properties", Map.of("depth", Map.of("maximum", 3)))));

        assertThat(violation(schema, Map.of())).isNull();
        assertThat(violation(schema, Map.of("card", "x", "cvv", 1, "expiry", 2))).isNull();
        assertThat(violation(schema, Map.of("card", "x", "cvv", 1)))
                .isEqualTo("at /: required property 'expiry' is missing (property 'card' needs it)");
        assertThat(violation(schema, Map.of("depth", 9))).isNull();
        assertThat(violation(schema, Map.of("recursive", true, "depth", 9))).isEqualTo("at /depth: must be <= 3");
        assertThat(problems(Map.of("dependentRequired", Map.of("a", "b")), true))
                .containsExactly("/dependentRequired/a: expected an array of property names");
    }

    // --- more array keywords ---

    @Test
    void prefixItemsChecksThePositionsAndItemsTheRest() {
        Map<String, Object> schema = Map.of("prefixItems", List.of(Map.of("type", "string"), Map.of("type", "integer")),
                "items", Map.of("type", "boolean"));

        assertThat(violation(schema, List.of("a"))).isNull();
        assertThat(violation(schema, List.of("a", 1, true, false))).isNull();
        assertThat(violation(schema, List.of(1))).isEqualTo("at /0: expected string, got number");
        assertThat(violation(schema, List.of("a", 1, "no"))).isEqualTo("at /2: expected boolean, got string");
        assertThat(violation(Map.of("prefixItems", List.of(Map.of("type", "string")), "items", false), List.of("a", "b")))
                .isEqualTo("at /1: no value is allowed here");
        assertThat(problems(Map.of("prefixItems", List.of()), true)).containsExactly("/prefixItems: expected a non-empty array of schemas");
    }

    @Test
    void uniqueItemsComparesItemsByValue() {
        Map<String, Object> schema = Map.of("uniqueItems", true);

        assertThat(violation(schema, List.of(1, "1", List.of(1), Map.of("a", 1), true))).isNull();
        assertThat(violation(schema, List.of(1, 2, 1.0))).isEqualTo("at /: must not contain equal items (items 0 and 2 are equal)");
        assertThat(violation(schema, List.of(Map.of("a", 1, "b", List.of()), ordered("b", List.of(), "a", new BigDecimal("1.0")))))
                .isEqualTo("at /: must not contain equal items (items 0 and 1 are equal)");
        assertThat(violation(Map.of("uniqueItems", false), List.of(1, 1))).isNull();
        assertThat(problems(Map.of("uniqueItems", "yes"), true)).containsExactly("/uniqueItems: expected true or false");
    }

    @Test
    void containsCountsMatchingItems() {
        Map<String, Object> admin = Map.of("contains", Map.of("const", "admin"));

        assertThat(violation(admin, List.of("user", "admin"))).isNull();
        assertThat(violation(admin, List.of("user"))).isEqualTo("at /: must contain at least 1 items that match contains (found 0)");
        assertThat(violation(admin, List.of())).isEqualTo("at /: must contain at least 1 items that match contains (found 0)");

        Map<String, Object> twoOrThree = Map.of("contains", Map.of("type", "integer"), "minContains", 2, "maxContains", 3);
        assertThat(violation(twoOrThree, List.of(1, "a", 2))).isNull();
        assertThat(violation(twoOrThree, List.of(1, "a"))).isEqualTo("at /: must contain at least 2 items that match contains (found 1)");
        assertThat(violation(twoOrThree, List.of(1, 2, 3, 4))).isEqualTo("at /: must contain at most 3 items that match contains (found 4)");
        assertThat(violation(Map.of("contains", false, "minContains", 0), List.of(1))).isNull();
        assertThat(violation(Map.of("minContains", 5, "maxContains", 0), List.of(1))).as("without contains they check nothing").isNull();
    }

    // --- a tool's schema in draft-07 terms ---

    @Test
    void lenientModeReadsDraft07TuplesAndDependencies() {
        JsonSchema tuple = JsonSchema.compileLenient(json("""
                {"items": [{"type": "string"}, {"type": "integer"}], "additionalItems": false}"""));
        assertThat(tuple.firstViolation(List.of("a", 1))).isNull();
        assertThat(tuple.firstViolation(List.of("a", "b"))).isEqualTo("at /1: expected integer, got string");
        assertThat(tuple.firstViolation(List.of("a", 1, 2))).isEqualTo("at /2: no value is allowed here");

        JsonSchema open = JsonSchema.compileLenient(json("{\"items\": {\"type\": \"string\"}, \"additionalItems\": false}"));
        assertThat(open.firstViolation(List.of("a", "b"))).as("additionalItems applies only beside an items array").isNull();

        JsonSchema dependencies = JsonSchema.compileLenient(json("""
                {"dependencies": {"card": ["cvv"], "recursive": {"required": ["depth"]}}}"""));
        assertThat(dependencies.firstViolation(Map.of("card", 1))).isEqualTo("at /: required property 'cvv' is missing "
                + "(property 'card' needs it)");
        assertThat(dependencies.firstViolation(Map.of("recursive", true))).isEqualTo("at /: required property 'depth' is missing");
        assertThat(lenientProblem(json("{\"items\": [{}], \"prefixItems\": [{}]}")))
                .isEqualTo("/items: an array of items cannot be combined with prefixItems");
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
                "a", Map.of("type", "string", "format", "uri", "unevaluatedProperties", false))), true);

        assertThat(problems).containsExactly("/properties/a/unevaluatedProperties: unsupported schema keyword "
                + "'unevaluatedProperties'; supported: type, enum, const, minLength, maxLength, pattern, minimum, maximum, "
                + "exclusiveMinimum, exclusiveMaximum, multipleOf, properties, required, additionalProperties, "
                + "patternProperties, propertyNames, minProperties, maxProperties, dependentRequired, dependentSchemas, "
                + "items, prefixItems, minItems, maxItems, uniqueItems, contains, minContains, maxContains, allOf, anyOf, "
                + "oneOf, not, if, then, else, $ref, $defs, definitions");
    }

    @ParameterizedTest
    @ValueSource(strings = {"additionalItems", "dependencies", "x-order", "discriminator", "nullable", "$anchor"})
    void strictModeRejectsDraft07FormsVendorKeysAndOtherDialects(String keyword) {
        assertThat(problems(Map.of(keyword, List.of()), true)).singleElement().asString()
                .startsWith("/" + keyword + ": unsupported schema keyword '" + keyword + "'");
    }

    @Test
    void strictModeRejectsDraft07ItemsArray() {
        assertThat(problems(Map.of("items", List.of(Map.of())), true))
                .containsExactly("/items: a schema must be an object or a boolean, got array");
    }

    @ParameterizedTest
    @ValueSource(strings = {"$schema", "$id", "$comment", "title", "description", "default", "examples", "format",
        "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding"})
    void bothModesAcceptAnnotations(String keyword) {
        assertThat(problems(Map.of(keyword, "x"), true)).isEmpty();
        assertThat(problems(Map.of(keyword, "x"), false)).isEmpty();
    }

    @Test
    void lenientModePassesOverVendorKeysAndNamesThatConstrainNothing() {
        JsonSchema schema = JsonSchema.compileLenient(json("""
                {"type": "object", "x-order": 1, "x-maxLength": 3, "discriminator": {"propertyName": "kind"},
                 "properties": {"n": {"type": "integer", "nullable": true, "example": 1, "enumNames": ["one"],
                    "$anchor": "n", "$dynamicAnchor": "m", "$vocabulary": {}, "contentSchema": {"type": "string"},
                    "errorMessage": "n must be a number", "id": "n"}}}"""));

        assertThat(schema.firstViolation(Map.of("n", 1))).isNull();
        assertThat(schema.firstViolation(Map.of("n", "1"))).isEqualTo("at /n: expected integer, got string");
    }

    @ParameterizedTest
    @ValueSource(strings = {"unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef", "$future",
        "extends", "disallow", "divisibleBy", "regexp", "range", "prohibited", "select",
        "maxlength", "MinLength", "Required", "ENUM", "minDate", "maxTokensEstimate", "exclusiveRange", "formatMaximum",
        "patternRequired", "prefixItemsCount", "uniqueItemProperties", "containsAll", "dependentFoo", "additionalStuff",
        "instanceof", "typeof", "deepRequired", "deepProperties", "maxItemsPerPage"})
    void lenientModeRefusesAKeywordThatLooksLikeAConstraint(String keyword) {
        assertThat(lenientProblem(Map.of("properties", Map.of("a", Map.of(keyword, 1)))))
                .isEqualTo("/properties/a/" + keyword + ": keyword '" + keyword + "' is not supported, so the arguments "
                        + "cannot be validated");
    }

    @Test
    void lenientModeShowsAHostileKeywordEscapedAndCapped() {
        String keyword = "max\n" + "k".repeat(100);

        assertThat(lenientProblem(Map.of(keyword, 1))).endsWith(": keyword 'max\\n" + "k".repeat(60)
                + "\u2026(+40 chars)' is not supported, so the arguments cannot be validated");
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


    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
