package dev.mcppolicy.schema;

import static dev.mcppolicy.schema.Schemas.json;
import static dev.mcppolicy.schema.Schemas.lenientProblem;
import static dev.mcppolicy.schema.Schemas.problems;
import static dev.mcppolicy.schema.Schemas.violation;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code $ref} within the document, {@code $defs} and {@code definitions}, and schemas as generators write them (issue 10). */
class JsonSchemaReferencesTest {

    private static final String LOOP = "loops back to '#' through $ref without descending into the value, so checking it "
            + "would never end";

    // --- the forms of a reference ---

    @Test
    void refersToTheRoot() {
        String schema = """
                {"type": "object", "properties": {"child": {"$ref": "#"}}, "additionalProperties": false}""";

        assertThat(violation(schema, "{\"child\": {\"child\": {}}}")).isNull();
        assertThat(violation(schema, "{\"child\": {\"child\": {\"x\": 1}}}")).isEqualTo("at /child/child: property 'x' is not allowed");
        assertThat(violation(schema, "{\"child\": 1}")).isEqualTo("at /child: expected object, got number");
    }

    @ParameterizedTest
    @ValueSource(strings = {"$defs", "definitions"})
    void refersToADefinition(String keyword) {
        String schema = """
                {"%1$s": {"amount": {"type": "integer", "maximum": 100}},
                 "properties": {"a": {"$ref": "#/%1$s/amount"}, "b": {"$ref": "#/%1$s/amount"}}}""".formatted(keyword);

        assertThat(violation(schema, "{\"a\": 100, \"b\": 0}")).isNull();
        assertThat(violation(schema, "{\"a\": 150}")).isEqualTo("at /a: must be <= 100");
        assertThat(violation(schema, "{\"b\": \"1\"}")).isEqualTo("at /b: expected integer, got string");
    }

    @Test
    void refersThroughEscapedAndPercentEncodedPointers() {
        String schema = """
                {"$defs": {"a/b": {"type": "string"}, "c~d": {"type": "integer"}, "e f": {"type": "boolean"}, "é": {"const": 1}},
                 "properties": {
                    "x": {"$ref": "#/$defs/a~1b"},
                    "y": {"$ref": "#/$defs/c~0d"},
                    "z": {"$ref": "#/$defs/e%20f"},
                    "w": {"$ref": "#/$defs/%C3%A9"}}}""";

        assertThat(violation(schema, "{\"x\": \"s\", \"y\": 1, \"z\": true, \"w\": 1}")).isNull();
        assertThat(violation(schema, "{\"x\": 1}")).isEqualTo("at /x: expected string, got number");
        assertThat(violation(schema, "{\"y\": \"1\"}")).isEqualTo("at /y: expected integer, got string");
        assertThat(violation(schema, "{\"z\": 1}")).isEqualTo("at /z: expected boolean, got number");
        assertThat(violation(schema, "{\"w\": 2}")).isEqualTo("at /w: must equal the schema's const value");
    }

    @Test
    void refersToAnySubschemaInTheDocument() {
        String schema = """
                {"properties": {
                    "a": {"type": "object", "properties": {"b": {"type": "integer"}}},
                    "c": {"$ref": "#/properties/a/properties/b"},
                    "d": {"$ref": "#/properties/t/prefixItems/1"},
                    "t": {"prefixItems": [{"type": "string"}, {"type": "boolean"}]}}}""";

        assertThat(violation(schema, "{\"c\": 1, \"d\": true}")).isNull();
        assertThat(violation(schema, "{\"c\": \"x\"}")).isEqualTo("at /c: expected integer, got string");
        assertThat(violation(schema, "{\"d\": \"x\"}")).isEqualTo("at /d: expected boolean, got string");
    }

    @Test
    void appliesTheKeywordsBesideARef() {
        String schema = """
                {"$defs": {"s": {"type": "string"}}, "properties": {"x": {"$ref": "#/$defs/s", "maxLength": 3}}}""";

        assertThat(violation(schema, "{\"x\": \"abc\"}")).isNull();
        assertThat(violation(schema, "{\"x\": \"abcd\"}")).isEqualTo("at /x: must be at most 3 characters long");
        assertThat(violation(schema, "{\"x\": 1}")).isEqualTo("at /x: expected string, got number");
    }

    // --- recursion ---

    @Test
    void checksARecursiveTree() {
        String schema = """
                {"$ref": "#/$defs/node",
                 "$defs": {"node": {"type": "object",
                    "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                    "required": ["value"], "additionalProperties": false}}}""";

        assertThat(violation(schema, "{\"value\": 1, \"children\": [{\"value\": 2, \"children\": [{\"value\": 3}]}, {\"value\": 4}]}"))
                .isNull();
        assertThat(violation(schema, "{\"value\": 1, \"children\": [{\"value\": 2, \"children\": [{\"value\": \"x\"}]}]}"))
                .isEqualTo("at /children/0/children/0/value: expected integer, got string");
        assertThat(violation(schema, "{\"value\": 1, \"children\": [{\"children\": []}]}"))
                .isEqualTo("at /children/0: required property 'value' is missing");
    }

    @Test
    void checksMutuallyRecursiveDefinitions() {
        String schema = """
                {"$ref": "#/$defs/expr",
                 "$defs": {
                    "expr": {"anyOf": [{"$ref": "#/$defs/and"}, {"type": "string", "pattern": "^[a-z]+$"}]},
                    "and": {"type": "object", "properties": {"and": {"type": "array", "items": {"$ref": "#/$defs/expr"}}},
                            "required": ["and"], "additionalProperties": false}}}""";

        assertThat(violation(schema, "{\"and\": [\"a\", {\"and\": [\"b\", \"c\"]}]}")).isNull();
        assertThat(violation(schema, "{\"and\": [\"a\", {\"and\": [\"B\"]}]}")).as("the failure the branches come down to")
                .isEqualTo("at /: must match at least one schema in anyOf (anyOf/0 fails at /and/1/and/0: does not match pattern "
                        + "^[a-z]+$)");
    }

    // --- what is refused ---

    @Test
    void refusesALoopThatNeverDescendsIntoTheValue() {
        assertThat(problems(json("{\"$ref\": \"#\"}"), true)).containsExactly("/$ref: " + LOOP);
        assertThat(problems(json("""
                {"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}"""), true))
                .containsExactly("/$defs/b/$ref: loops back to '#/$defs/a' through $ref without descending into the value, so "
                        + "checking it would never end");
        assertThat(problems(json("""
                {"$defs": {"a": {"type": "object", "anyOf": [{"$ref": "#/$defs/a"}, {"required": ["x"]}]}}}"""), true))
                .as("other keywords beside it do not end the loop").containsExactly("/$defs/a/anyOf/0/$ref: loops back to "
                        + "'#/$defs/a' through $ref without descending into the value, so checking it would never end");
        assertThat(problems(json("{\"not\": {\"$ref\": \"#\"}}"), true)).containsExactly("/not/$ref: " + LOOP);
        assertThat(problems(json("{\"if\": true, \"then\": {\"allOf\": [{\"$ref\": \"#\"}]}}"), true))
                .containsExactly("/then/allOf/0/$ref: " + LOOP);
        assertThat(lenientProblem(json("{\"properties\": {\"a\": {\"$ref\": \"#/properties/a\"}}}")))
                .isEqualTo("/properties/a/$ref: loops back to '#/properties/a' through $ref without descending into the value, "
                        + "so checking it would never end");
    }

    @Test
    void refusesReferencesOutOfTheDocumentInBothModes() {
        String outside = "refers outside this schema; only references within it (#, #/$defs/name, #/definitions/name, "
                + "#/...) are supported";

        assertThat(problems(json("{\"$ref\": \"https://example.com/schema.json\"}"), true))
                .containsExactly("/$ref: $ref 'https://example.com/schema.json' " + outside);
        assertThat(problems(json("{\"properties\": {\"a\": {\"$ref\": \"other.json#/$defs/a\"}}}"), true))
                .containsExactly("/properties/a/$ref: $ref 'other.json#/$defs/a' " + outside);
        assertThat(lenientProblem(json("{\"properties\": {\"a\": {\"$ref\": \"https://example.com/a.json\"}}}")))
                .isEqualTo("/properties/a/$ref: $ref 'https://example.com/a.json' " + outside);
        assertThat(lenientProblem(json("{\"items\": {\"$ref\": \"address.json\"}}")))
                .isEqualTo("/items/$ref: $ref 'address.json' " + outside);
    }

    @Test
    void refusesReferencesThatPointAtNoSubschema() {
        assertThat(problems(json("""
                {"properties": {"a": {"type": "string"}},
                 "required": ["a"],
                 "allOf": [
                    {"$ref": "#/$defs/missing"}, {"$ref": "#/properties"}, {"$ref": "#/required/0"},
                    {"$ref": "#/properties/a/type"}, {"$ref": "#node"}, {"$ref": "#/a~2b"}, {"$ref": "#/%zz"}, {"$ref": 1}]}"""),
                true)).as("a $ref that is not a string is found first, the rest when references are linked").containsExactly(
                "/allOf/7/$ref: expected a reference like \"#/$defs/name\"",
                "/allOf/0/$ref: $ref '#/$defs/missing' points at no subschema of this schema",
                "/allOf/1/$ref: $ref '#/properties' points at no subschema of this schema",
                "/allOf/2/$ref: $ref '#/required/0' points at no subschema of this schema",
                "/allOf/3/$ref: $ref '#/properties/a/type' points at no subschema of this schema",
                "/allOf/4/$ref: $ref '#node' names an anchor; only JSON Pointer references (#, #/...) are supported",
                "/allOf/5/$ref: $ref '#/a~2b' is not a valid JSON Pointer: '~' must be followed by 0 or 1",
                "/allOf/6/$ref: $ref '#/%zz' has a '%' that is not followed by two hex digits");
    }

    @Test
    void refusesARefUnderASubschemaWithItsOwnId() {
        String problem = "a $ref inside a subschema with its own $id is not supported: the $id changes what it refers to";

        assertThat(problems(json("""
                {"$id": "https://example.com/root", "$defs": {"a": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/a"}}}"""),
                true)).as("the root's $id is this document's").isEmpty();
        assertThat(problems(json("""
                {"properties": {"a": {"$id": "https://example.com/a", "items": {"$ref": "#/$defs/x"}, "$defs": {"x": {}}}}}"""), true))
                .containsExactly("/properties/a/items/$ref: " + problem);
        assertThat(lenientProblem(json("{\"properties\": {\"a\": {\"$id\": \"a.json\", \"$ref\": \"#\"}}}")))
                .isEqualTo("/properties/a/$ref: " + problem);
        assertThat(problems(json("{\"properties\": {\"a\": {\"$id\": \"https://example.com/a\", \"type\": \"string\"}}}"), true))
                .isEmpty();
    }

    @Test
    void compilesEveryDefinitionEvenUnreferenced() {
        assertThat(problems(json("{\"$defs\": {\"a\": {\"type\": \"text\"}}}"), true)).containsExactly(
                "/$defs/a/type: unknown type text; expected one of string, number, integer, boolean, object, array, null");
        assertThat(problems(json("{\"$defs\": [], \"definitions\": 1}"), true))
                .containsExactly("/$defs: expected an object of schemas", "/definitions: expected an object of schemas");
        assertThat(lenientProblem(json("{\"definitions\": {\"a\": {\"unevaluatedItems\": false}}}"))).as("fail closed")
                .isEqualTo("/definitions/a/unevaluatedItems: keyword 'unevaluatedItems' is not supported, so the arguments "
                        + "cannot be validated");
    }

    // --- schemas as tool frameworks generate them ---

    /** What Pydantic v2 writes (FastMCP and the Python SDK): $defs, anyOf with null for Optional, a discriminated oneOf. */
    private static final String PYDANTIC = """
            {"$defs": {
                "Address": {"properties": {
                        "street": {"title": "Street", "type": "string"},
                        "zip": {"anyOf": [{"pattern": "^[0-9]{5}$", "type": "string"}, {"type": "null"}], "default": null, "title": "Zip"}},
                    "required": ["street"], "title": "Address", "type": "object"},
                "Cat": {"properties": {"kind": {"const": "cat", "title": "Kind", "type": "string"},
                        "lives": {"maximum": 9, "minimum": 0, "title": "Lives", "type": "integer"}},
                    "required": ["kind", "lives"], "title": "Cat", "type": "object"},
                "Dog": {"properties": {"kind": {"const": "dog", "title": "Kind", "type": "string"},
                        "good": {"title": "Good", "type": "boolean"}},
                    "required": ["kind", "good"], "title": "Dog", "type": "object"}},
             "properties": {
                "name": {"maxLength": 50, "title": "Name", "type": "string"},
                "address": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}], "default": null},
                "pet": {"discriminator": {"mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"}, "propertyName": "kind"},
                    "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}], "title": "Pet"},
                "tags": {"items": {"type": "string"}, "title": "Tags", "type": "array", "uniqueItems": true}},
             "required": ["name", "pet"], "title": "adopt_petArguments", "type": "object"}""";

    @Test
    void checksASchemaAsPydanticWritesIt() {
        JsonSchema schema = JsonSchema.compileLenient(json(PYDANTIC));

        assertThat(schema.firstViolation(json("""
                {"name": "Rex", "pet": {"kind": "dog", "good": true}, "address": null, "tags": ["a", "b"]}"""))).isNull();
        assertThat(schema.firstViolation(json("""
                {"name": "Tom", "pet": {"kind": "cat", "lives": 9}, "address": {"street": "Main", "zip": "12345"}}"""))).isNull();
        assertThat(schema.firstViolation(json("""
                {"name": "Tom", "pet": {"kind": "cat", "lives": 9}, "address": {"street": "Main", "zip": "1234"}}""")))
                .isEqualTo("at /address: must match at least one schema in anyOf (anyOf/0 fails at /address/zip: does not match "
                        + "pattern ^[0-9]{5}$)");
        assertThat(schema.firstViolation(json("{\"name\": \"Tom\", \"pet\": {\"kind\": \"cat\", \"lives\": 10}}")))
                .isEqualTo("at /pet: must match exactly one schema in oneOf (matched 0; oneOf/0 fails at /pet/lives: must be <= 9)");
        assertThat(schema.firstViolation(json("{\"name\": \"Rex\", \"pet\": {\"kind\": \"dog\", \"good\": true}, \"tags\": [\"a\", \"b\", \"a\"]}")))
                .isEqualTo("at /tags: must not contain equal items (items 0 and 2 are equal)");
        assertThat(schema.firstViolation(json("{\"pet\": {\"kind\": \"dog\", \"good\": true}}")))
                .isEqualTo("at /: required property 'name' is missing");
    }

    /**
     * What zod-to-json-schema writes for the TypeScript SDK (draft-07, its default "root" strategy): a
     * reused or recursive schema is a $ref to the path where it first appears, a tuple is an items array.
     */
    private static final String ZOD = """
            {"type": "object",
             "properties": {
                "query": {"type": "string", "minLength": 1},
                "limit": {"type": "integer", "exclusiveMinimum": 0, "maximum": 100, "default": 10},
                "filter": {"anyOf": [
                    {"type": "object", "properties": {
                        "field": {"type": "string"},
                        "equals": {"type": ["string", "number", "boolean"]},
                        "and": {"type": "array", "items": {"$ref": "#/properties/filter/anyOf/0"}}},
                     "required": ["field"], "additionalProperties": false},
                    {"type": "null"}]},
                "sort": {"type": "array", "minItems": 2, "maxItems": 2,
                    "items": [{"type": "string", "enum": ["asc", "desc"]}, {"type": "string"}]}},
             "required": ["query"],
             "additionalProperties": false,
             "$schema": "http://json-schema.org/draft-07/schema#"}""";

    @Test
    void checksASchemaAsZodToJsonSchemaWritesIt() {
        JsonSchema schema = JsonSchema.compileLenient(json(ZOD));

        assertThat(schema.firstViolation(json("""
                {"query": "q", "limit": 5, "sort": ["asc", "name"],
                 "filter": {"field": "a", "and": [{"field": "b", "equals": 1}, {"field": "c", "and": []}]}}"""))).isNull();
        assertThat(schema.firstViolation(json("{\"query\": \"q\", \"filter\": null}"))).isNull();
        assertThat(schema.firstViolation(json("{\"query\": \"q\", \"filter\": {\"field\": \"a\", \"and\": [{\"field\": \"b\", \"x\": 1}]}}")))
                .isEqualTo("at /filter: must match at least one schema in anyOf (anyOf/0 fails at /filter/and/0: property 'x' is "
                        + "not allowed)");
        assertThat(schema.firstViolation(json("{\"query\": \"q\", \"sort\": [\"up\", \"name\"]}")))
                .isEqualTo("at /sort/0: must be one of the schema's enum values");
        assertThat(schema.firstViolation(json("{\"query\": \"q\", \"limit\": 0}"))).isEqualTo("at /limit: must be > 0");
        assertThat(schema.firstViolation(json("{\"query\": \"\"}"))).isEqualTo("at /query: must be at least 1 characters long");
    }

    /** What Spring AI's generator (victools, draft 2020-12) writes for records that refer to each other and to themselves. */
    private static final String SPRING_AI = """
            {"$schema": "https://json-schema.org/draft/2020-12/schema",
             "type": "object",
             "properties": {
                "order": {"$ref": "#/$defs/Order", "description": "the order to place"},
                "priority": {"type": "string", "enum": ["LOW", "NORMAL", "HIGH"]}},
             "required": ["order"],
             "additionalProperties": false,
             "$defs": {
                "Order": {"type": "object", "properties": {
                        "id": {"type": "string", "format": "uuid"},
                        "lines": {"type": "array", "items": {"$ref": "#/$defs/OrderLine"}, "minItems": 1},
                        "replaces": {"$ref": "#/$defs/Order"}},
                    "required": ["id", "lines"], "additionalProperties": false},
                "OrderLine": {"type": "object", "properties": {
                        "sku": {"type": "string"},
                        "quantity": {"type": "integer", "format": "int32", "minimum": 1},
                        "unitPrice": {"type": "number", "multipleOf": 0.01}},
                    "required": ["sku", "quantity"], "additionalProperties": false}}}""";

    @Test
    void checksASchemaAsSpringAiWritesIt() {
        JsonSchema schema = JsonSchema.compileLenient(json(SPRING_AI));

        assertThat(schema.firstViolation(json("""
                {"order": {"id": "a", "lines": [{"sku": "x", "quantity": 2, "unitPrice": 9.99}],
                           "replaces": {"id": "b", "lines": [{"sku": "y", "quantity": 1}]}}, "priority": "HIGH"}"""))).isNull();
        assertThat(schema.firstViolation(json("""
                {"order": {"id": "a", "lines": [], "replaces": {"id": "b", "lines": []}}}""")))
                .isEqualTo("at /order/lines: must have at least 1 items");
        assertThat(schema.firstViolation(json("""
                {"order": {"id": "a", "lines": [{"sku": "x", "quantity": 1}],
                           "replaces": {"id": "b", "lines": [{"sku": "y", "quantity": 1, "unitPrice": 0.005}]}}}""")))
                .isEqualTo("at /order/replaces/lines/0/unitPrice: must be a multiple of 0.01");
        assertThat(schema.firstViolation(json("{\"order\": {\"id\": \"a\", \"lines\": [{\"sku\": \"x\", \"quantity\": 0}]}}")))
                .isEqualTo("at /order/lines/0/quantity: must be >= 1");
    }

    @Test
    void theGeneratedSchemasAreValidPolicySchemasTooWhereTheySpell2020_12() {
        assertThat(problems(json(SPRING_AI), true)).isEmpty();
        assertThat(problems(json(PYDANTIC), true)).containsExactly("/properties/pet/discriminator: unsupported schema keyword "
                + "'discriminator'; supported: " + String.join(", ", Keywords.SUPPORTED));
    }
}
