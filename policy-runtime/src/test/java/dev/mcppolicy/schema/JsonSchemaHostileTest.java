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

    /** {@code {"items": {"items": ... {}}}}, {@code levels} schemas deep. */
    private static Object schemaOf(int levels) {
        Object schema = Map.of();
        for (int i = 1; i < levels; i++) {
            schema = Map.of("items", schema);
        }
        return schema;
    }
}
