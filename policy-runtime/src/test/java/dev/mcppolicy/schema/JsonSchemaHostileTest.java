package dev.mcppolicy.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcppolicy.Hostile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Validation of hostile instances, and compiling hostile schemas (issue 8, item 4). */
class JsonSchemaHostileTest {

    private static JsonSchema strict(Object schema) {
        List<String> problems = new ArrayList<>();
        JsonSchema compiled = JsonSchema.compile(schema, true, (pointer, message) -> problems.add(pointer + ": " + message));
        assertThat(problems).isEmpty();
        return compiled;
    }

    private static String violation(Object schema, Object instance) {
        JsonSchema compiled = strict(schema);
        return Hostile.onSmallStack(() -> compiled.firstViolation(instance));
    }

    @Test
    void validatesAnInstanceNestedTenThousandLevelsDeepAlongTheSchemaOnly() {
        Map<String, Object> schema = Map.of("type", "object", "properties", Map.of("m", Map.of("type", "array",
                "items", Map.of("type", "object", "required", List.of("m")))), "additionalProperties", false);

        assertThat(violation(schema, Hostile.deep(Hostile.DEPTH))).isNull();
        assertThat(violation(Map.of("properties", Map.of("m", Map.of("maxItems", 0))), Hostile.deep(Hostile.DEPTH)))
                .isEqualTo("at /m: must have at most 0 items");
    }

    @Test
    void comparesDeepEnumAndConstValuesIteratively() {
        Map<String, Object> deep = Hostile.deep(Hostile.DEPTH);

        assertThat(violation(Map.of("const", deep), Hostile.deep(Hostile.DEPTH))).isNull();
        assertThat(violation(Map.of("const", deep), Hostile.deep(Hostile.DEPTH, "other")))
                .isEqualTo("at /: must equal the schema's const value");
        assertThat(violation(Map.of("enum", List.of("x", deep)), Hostile.deep(Hostile.DEPTH))).isNull();
        assertThat(violation(Map.of("enum", List.of("x", deep)), Map.of("m", List.of())))
                .isEqualTo("at /: must be one of the schema's enum values");
    }

    @Test
    void checksATenMegabyteStringWithoutTrouble() {
        String value = Hostile.longString();

        assertThat(violation(Map.of("type", "string", "maxLength", 100), value)).isEqualTo("at /: must be at most 100 characters long");
        assertThat(violation(Map.of("type", "string", "minLength", 1), value)).isNull();
        assertThat(violation(Map.of("pattern", "^a+$"), value)).as("RE2 matches in linear time").isNull();
        assertThat(violation(Map.of("pattern", "b"), value)).isEqualTo("at /: does not match pattern b");
    }

    @Test
    void checksAMapOfOneHundredThousandKeys() {
        Map<String, Object> declared = Map.of("properties", Map.of("k000000", Map.of("type", "integer")));
        Map<String, Object> closed = new LinkedHashMap<>(declared);
        closed.put("additionalProperties", false);

        assertThat(violation(Map.of("additionalProperties", Map.of("type", "integer")), Hostile.wide())).isNull();
        assertThat(violation(closed, Hostile.wide())).isEqualTo("at /: property 'k099999' is not allowed");
        assertThat(violation(Map.of("required", List.of("k100000")), Hostile.wide()))
                .isEqualTo("at /: required property 'k100000' is missing");
    }

    @Test
    void boundsNumbersBeyondADoubleAndNeverLetsNanThrough() {
        Map<String, Object> percent = Map.of("type", "number", "minimum", 0, "maximum", 100);

        assertThat(violation(percent, Hostile.INFINITY)).isEqualTo("at /: must be <= 100");
        assertThat(violation(percent, Double.NEGATIVE_INFINITY)).isEqualTo("at /: must be >= 0");
        assertThat(violation(percent, Hostile.BIG)).isEqualTo("at /: must be <= 100");
        assertThat(violation(percent, Hostile.HUGE_EXPONENT)).isEqualTo("at /: must be <= 100");
        assertThat(violation(percent, Hostile.NEGATIVE_HUGE_EXPONENT)).isEqualTo("at /: must be >= 0");
        assertThat(violation(percent, Hostile.TINY)).isNull();
        assertThat(violation(percent, -0.0)).isNull();
        assertThat(violation(percent, Double.NaN)).as("NaN is not >= 0").isEqualTo("at /: must be >= 0");
        assertThat(violation(Map.of("maximum", 100), Double.NaN)).as("nor <= 100").isEqualTo("at /: must be <= 100");
        assertThat(violation(Map.of("exclusiveMaximum", 100), Double.NaN)).isEqualTo("at /: must be < 100");
        assertThat(violation(Map.of("exclusiveMinimum", 0), Hostile.TINY)).isNull();
        assertThat(violation(Map.of("type", "integer"), Hostile.HUGE_EXPONENT)).isNull();
        assertThat(violation(Map.of("type", "integer"), Hostile.INFINITY)).isEqualTo("at /: expected integer, got number");
        assertThat(violation(Map.of("type", "integer"), Double.NaN)).isEqualTo("at /: expected integer, got number");
    }

    @Test
    void countsLoneSurrogatesAsOneCharacterAndShowsHostileNamesEscapedAndCapped() {
        assertThat(violation(Map.of("maxLength", 2), Hostile.LONE_HIGH)).isNull();
        assertThat(violation(Map.of("maxLength", 1), Hostile.NON_BMP.substring(0, 2))).isNull();
        assertThat(violation(Map.of("maxLength", 1), Hostile.NON_BMP)).isEqualTo("at /: must be at most 1 characters long");

        Map<String, Object> closed = Map.of("additionalProperties", false);
        assertThat(violation(closed, Map.of("a\n[rule (hidden)]\u202e'\uD800", 1)))
                .isEqualTo("at /: property 'a\\n[rule (hidden)]\\u202e\\'\\ud800' is not allowed");
        assertThat(violation(closed, Map.of("k".repeat(10_000), 1)))
                .isEqualTo("at /: property '" + "k".repeat(64) + "\u2026(+9936 chars)' is not allowed");
        assertThat(violation(Map.of("additionalProperties", Map.of("type", "string")), Map.of("x\u2028y", 1)))
                .isEqualTo("at /x\\u2028y: expected string, got number");
    }

    @Test
    void refusesSchemasNestedDeeperThanTheLimitWithoutRecursingIntoThem() {
        Object tooDeep = Hostile.deep(Hostile.DEPTH);
        Object nested = Map.of("type", "array");
        for (int i = 0; i < 20; i++) {
            nested = Map.of("properties", Map.of("m", Map.of("items", nested)));
        }
        Object deepSchema = nested;

        assertThatThrownBy(() -> Hostile.onSmallStack(() -> JsonSchema.compileLenient(schemaOf(Hostile.DEPTH))))
                .hasRootCauseInstanceOf(IllegalArgumentException.class)
                .hasRootCauseMessage("/items" + "/items".repeat(JsonSchema.MAX_DEPTH - 1) + ": the schema nests more than 64 levels deep here");
        assertThat(Hostile.onSmallStack(() -> JsonSchema.compileLenient(deepSchema).firstViolation(tooDeep)))
                .as("a schema within the limit validates any instance").isEqualTo("at " + "/m/0".repeat(20) + ": expected array, got object");
        assertThat(Hostile.onSmallStack(() -> JsonSchema.compileLenient(schemaOf(JsonSchema.MAX_DEPTH)))).isNotNull();
    }

    // --- $ref and the combinators (issue 10) ---

    private static final String TOO_DEEP = ": checking the value goes more than " + JsonSchema.MAX_VALIDATION_DEPTH
            + " subschemas deep here";
    private static final String TOO_MUCH = "at /: checking the value against this schema takes more than "
            + JsonSchema.MAX_VALIDATION_STEPS + " steps";

    /** {@link Hostile#deep}'s shape as a recursive schema: objects {"m": [...]}, down to the string at the bottom. */
    private static final Object TREE = Schemas.json("""
            {"$ref": "#/$defs/node",
             "$defs": {"node": {"type": "object", "required": ["m"], "additionalProperties": false,
                "properties": {"m": {"type": "array", "items": {"anyOf": [{"$ref": "#/$defs/node"}, {"const": "bottom"}]}}}}}}""");

    @Test
    void checksARecursiveTreeAndStopsATenThousandLevelArgumentAtTheDepthLimit() {
        assertThat(violation(TREE, Hostile.deep(60))).isNull();
        assertThat(violation(TREE, Hostile.deep(60, "other"))).isEqualTo("at /m/0: must match at least one schema in anyOf "
                + "(anyOf/0 fails at " + "/m/0".repeat(30) + ": must equal the schema's const value)");

        String tooDeep = violation(TREE, Hostile.deep(Hostile.DEPTH));
        assertThat(tooDeep).as("stopped, not explained as a branch that failed").startsWith("at /m/0/m/0/m/0").endsWith(TOO_DEEP)
                .doesNotContain("anyOf", Hostile.BOTTOM);
        assertThat(tooDeep.length()).as("as long as one pointer").isLessThan(4 * JsonSchema.MAX_VALIDATION_DEPTH);
    }

    @Test
    void aStoppedCheckFailsThroughNotAndEveryBranch() {
        Object negated = Schemas.json("""
                {"not": {"$ref": "#/$defs/node"}, "$defs": {"node": {"properties": {"m": {"items": {"$ref": "#/$defs/node"}}}}}}""");
        Object branches = Schemas.json("""
                {"oneOf": [{"$ref": "#/$defs/node"}, true], "$defs": {"node": {"properties": {"m": {"items": {"$ref": "#/$defs/node"}}}}}}""");

        assertThat(violation(negated, Hostile.deep(10))).isEqualTo("at /: must not match the schema in not");
        assertThat(violation(negated, Hostile.deep(Hostile.DEPTH))).as("too deep to check is no pass for not").endsWith(TOO_DEEP);
        assertThat(violation(branches, Hostile.deep(Hostile.DEPTH))).endsWith(TOO_DEEP);
    }

    @Test
    void followsAChainOfTenThousandReferencesWithoutADeepStack() {
        Map<String, Object> defs = new LinkedHashMap<>();
        for (int i = 0; i < Hostile.DEPTH - 1; i++) {
            defs.put("d" + i, Map.of("$ref", "#/$defs/d" + (i + 1)));
        }
        defs.put("d" + (Hostile.DEPTH - 1), Map.of("type", "string"));
        Map<String, Object> chain = Map.of("$ref", "#/$defs/d0", "$defs", defs);

        JsonSchema compiled = Hostile.onSmallStack(() -> JsonSchema.compileLenient(chain));
        assertThat(Hostile.onSmallStack(() -> compiled.firstViolation("x"))).isEqualTo("at /" + TOO_DEEP);

        defs.put("d" + (Hostile.DEPTH - 1), Map.of("$ref", "#/$defs/d0"));
        assertThatThrownBy(() -> Hostile.onSmallStack(() -> JsonSchema.compileLenient(chain)))
                .hasRootCauseInstanceOf(IllegalArgumentException.class)
                .hasRootCauseMessage("/$defs/d9999/$ref: loops back to '#/$defs/d0' through $ref without descending into the "
                        + "value, so checking it would never end");
    }

    @Test
    void stopsAReferenceGraphThatWouldApplyASubschemaExponentiallyOften() {
        Map<String, Object> defs = new LinkedHashMap<>();
        for (int i = 0; i < 40; i++) {
            Map<String, Object> next = Map.of("$ref", "#/$defs/d" + (i + 1));
            defs.put("d" + i, Map.of("anyOf", List.of(next, next)));
        }
        defs.put("d40", false);
        Object inPlace = Map.of("$ref", "#/$defs/d0", "$defs", defs);
        Object descending = Schemas.json("""
                {"$ref": "#/$defs/a", "$defs": {
                    "a": {"allOf": [{"$ref": "#/$defs/b"}, {"$ref": "#/$defs/b"}]},
                    "b": {"properties": {"m": {"items": {"$ref": "#/$defs/a"}}}}}}""");

        assertThat(violation(inPlace, "x")).isEqualTo(TOO_MUCH);
        assertThat(violation(descending, Hostile.deep(48))).startsWith("at /m/0").endsWith(
                ": checking the value against this schema takes more than " + JsonSchema.MAX_VALIDATION_STEPS + " steps");
        assertThat(violation(descending, Hostile.deep(20))).as("the same schema checks a value that is not hostile").isNull();
    }

    @Test
    void checksLargeArgumentsAgainstASchemaWithReferencesWithinTheBudget() {
        Object wide = Schemas.json("""
                {"additionalProperties": {"$ref": "#/$defs/n"}, "$defs": {"n": {"type": "integer", "minimum": 0}}}""");
        Object text = Schemas.json("""
                {"$ref": "#/$defs/s", "$defs": {"s": {"anyOf": [{"type": "string", "pattern": "^a+$", "maxLength": 20000000}, {"type": "null"}]}}}""");
        List<Object> items = new ArrayList<>(Hostile.wide().values());

        assertThat(violation(wide, Hostile.wide())).isNull();
        assertThat(violation(text, Hostile.longString())).isNull();
        assertThat(violation(Schemas.json("""
                {"$ref": "#/$defs/a", "$defs": {"a": {"type": "array", "items": {"$ref": "#/$defs/i"}}, "i": {"type": "integer"}}}"""),
                items)).isNull();
    }

    @Test
    void checksUniqueItemsContainsAndPropertyNamesOverWideValues() {
        List<Object> items = new ArrayList<>(Hostile.wide().values());

        assertThat(violation(Map.of("uniqueItems", true), items)).isNull();
        items.add(99_999L);
        assertThat(violation(Map.of("uniqueItems", true), items)).isEqualTo("at /: must not contain equal items (items 0 and 100000 are equal)");
        assertThat(violation(Map.of("uniqueItems", true), List.of(Hostile.deep(Hostile.DEPTH), Hostile.deep(Hostile.DEPTH))))
                .isEqualTo("at /: must not contain equal items (items 0 and 1 are equal)");
        assertThat(violation(Map.of("contains", Map.of("const", 0)), items)).isNull();
        assertThat(violation(Map.of("contains", Map.of("const", -1)), items))
                .isEqualTo("at /: must contain at least 1 items that match contains (found 0)");
        assertThat(violation(Map.of("propertyNames", Map.of("pattern", "^k[0-9]{6}$")), Hostile.wide())).isNull();
        assertThat(violation(Map.of("patternProperties", Map.of("^k0", Map.of("type", "integer")), "additionalProperties", false),
                Hostile.wide())).isNull();
    }

    @Test
    void multipleOfNeverExpandsAHugeExponent() {
        assertThat(violation(Map.of("multipleOf", 1), Hostile.HUGE_EXPONENT)).isNull();
        assertThat(violation(Map.of("multipleOf", 7), Hostile.HUGE_EXPONENT)).isEqualTo("at /: must be a multiple of 7");
        assertThat(violation(Map.of("multipleOf", 0.01), Hostile.BIG)).isNull();
        assertThat(violation(Map.of("multipleOf", 1), Hostile.TINY)).isEqualTo("at /: must be a multiple of 1");
        assertThat(violation(Map.of("multipleOf", Hostile.TINY), 1)).isNull();
        assertThat(violation(Map.of("multipleOf", Hostile.HUGE_EXPONENT), 1)).isEqualTo("at /: must be a multiple of 1E+400000000");
        assertThat(violation(Map.of("multipleOf", 1), Hostile.INFINITY)).isEqualTo("at /: must be a multiple of 1");
        assertThat(violation(Map.of("multipleOf", 1), Double.NaN)).isEqualTo("at /: must be a multiple of 1");
    }

    @Test
    void explainsNestedCombinatorsAsDeepAsASchemaMayNestInLinearTime() {
        Object nested = Map.of("type", "string");
        for (int i = 0; i < 31; i++) {
            nested = Map.of("anyOf", List.of(nested, Map.of("type", "null")));
        }
        Object schema = nested;

        assertThat(violation(schema, 1))
                .isEqualTo("at /: must match at least one schema in anyOf (anyOf/0 fails at /: expected string, got number)");
    }

    /** {@code {"items": {"items": ... {}}}}, {@code levels} schemas deep. */
    private static Object schemaOf(int levels) {
        Object schema = Map.of();
        for (int i = 1; i < levels; i++) {
            schema = Map.of("items", schema);
        }
        return schema;
    }
}
