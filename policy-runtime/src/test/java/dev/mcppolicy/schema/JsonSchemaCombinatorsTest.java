package dev.mcppolicy.schema;

import static dev.mcppolicy.schema.Schemas.json;
import static dev.mcppolicy.schema.Schemas.lenientProblem;
import static dev.mcppolicy.schema.Schemas.problems;
import static dev.mcppolicy.schema.Schemas.violation;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code allOf}, {@code anyOf}, {@code oneOf}, {@code not} and {@code if}/{@code then}/{@code else} (issue 10). */
class JsonSchemaCombinatorsTest {

    // --- allOf ---

    @Test
    void allOfNeedsEveryBranchAndReportsTheFirstThatFails() {
        String schema = """
                {"allOf": [{"type": "integer"}, {"minimum": 0}, {"maximum": 10}]}""";

        assertThat(violation(schema, "5")).isNull();
        assertThat(violation(schema, "-1")).isEqualTo("at /: must be >= 0");
        assertThat(violation(schema, "11")).isEqualTo("at /: must be <= 10");
        assertThat(violation(schema, "\"5\"")).isEqualTo("at /: expected integer, got string");
        assertThat(violation("""
                {"properties": {"x": {"allOf": [{"type": "string"}, {"maxLength": 2}]}}}""", """
                {"x": "abc"}""")).isEqualTo("at /x: must be at most 2 characters long");
    }

    // --- anyOf ---

    @Test
    void anyOfNeedsOneBranchAndExplainsTheBranchTheValueWasMeantFor() {
        String nullable = """
                {"properties": {"name": {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}]}}}""";

        assertThat(violation(nullable, "{\"name\": \"ok\"}")).isNull();
        assertThat(violation(nullable, "{\"name\": null}")).isNull();
        assertThat(violation(nullable, "{}")).isNull();
        assertThat(violation(nullable, "{\"name\": \"too long\"}")).isEqualTo(
                "at /name: must match at least one schema in anyOf (anyOf/0 fails at /name: must be at most 5 characters long)");
        assertThat(violation(nullable, "{\"name\": 3}")).as("every branch refuses the type: the first explains")
                .isEqualTo("at /name: must match at least one schema in anyOf (anyOf/0 fails at /name: expected string, got number)");
        assertThat(violation("""
                {"anyOf": [{"type": "null"}, {"type": "object", "required": ["a"]}]}""", "{}"))
                .as("a branch whose type fits explains before one whose type does not").isEqualTo(
                        "at /: must match at least one schema in anyOf (anyOf/1 fails at /: required property 'a' is missing)");
    }

    @Test
    void anyOfPointsAtTheNestedValueItsBranchFailsOn() {
        String schema = """
                {"properties": {"p": {"anyOf": [
                    {"type": "object", "properties": {"a": {"type": "integer"}}},
                    {"type": "string"}]}}}""";

        assertThat(violation(schema, "{\"p\": {\"a\": 1}}")).isNull();
        assertThat(violation(schema, "{\"p\": \"s\"}")).isNull();
        assertThat(violation(schema, "{\"p\": {\"a\": \"x\"}}")).isEqualTo(
                "at /p: must match at least one schema in anyOf (anyOf/0 fails at /p/a: expected integer, got string)");
    }

    @Test
    void nestedCombinatorsExplainTheFailureTheyComeDownTo() {
        String schema = """
                {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"zip":
                    {"anyOf": [{"type": "string", "pattern": "^[0-9]{5}$"}, {"type": "null"}]}}}]}""";

        assertThat(violation(schema, "{\"zip\": \"1234\"}")).isEqualTo("at /: must match at least one schema in anyOf "
                + "(anyOf/1 fails at /zip: does not match pattern ^[0-9]{5}$)");
    }

    @Test
    void siblingKeywordsAreCheckedBeforeTheCombinators() {
        String schema = """
                {"type": "object", "required": ["a"], "anyOf": [{"required": ["b"]}, {"required": ["c"]}]}""";

        assertThat(violation(schema, "{\"a\": 1, \"c\": 1}")).isNull();
        assertThat(violation(schema, "{}")).isEqualTo("at /: required property 'a' is missing");
        assertThat(violation(schema, "{\"a\": 1}")).isEqualTo(
                "at /: must match at least one schema in anyOf (anyOf/0 fails at /: required property 'b' is missing)");
    }

    // --- oneOf ---

    @Test
    void oneOfNeedsExactlyOneBranch() {
        String schema = """
                {"oneOf": [{"type": "integer"}, {"minimum": 10}]}""";

        assertThat(violation(schema, "5")).isNull();
        assertThat(violation(schema, "12.5")).isNull();
        assertThat(violation(schema, "12")).isEqualTo("at /: must match exactly one schema in oneOf (matched 2)");
        assertThat(violation(schema, "5.5")).isEqualTo(
                "at /: must match exactly one schema in oneOf (matched 0; oneOf/1 fails at /: must be >= 10)");
        assertThat(violation("""
                {"properties": {"n": {"oneOf": [true, true, true]}}}""", "{\"n\": 1}"))
                .isEqualTo("at /n: must match exactly one schema in oneOf (matched 3)");
    }

    // --- not ---

    @Test
    void notRefusesWhatItsSchemaAccepts() {
        assertThat(violation("{\"not\": {\"type\": \"null\"}}", "1")).isNull();
        assertThat(violation("{\"not\": {\"type\": \"null\"}}", "null")).isEqualTo("at /: must not match the schema in not");
        assertThat(violation("""
                {"properties": {"path": {"not": {"pattern": "\\\\.\\\\."}}}}""", "{\"path\": \"../etc\"}"))
                .isEqualTo("at /path: must not match the schema in not");
        assertThat(violation("{\"not\": {\"not\": {\"type\": \"string\"}}}", "\"x\"")).isNull();
        assertThat(violation("{\"not\": {\"not\": {\"type\": \"string\"}}}", "1")).isEqualTo("at /: must not match the schema in not");
        assertThat(violation("{\"not\": false}", "1")).isNull();
        assertThat(violation("{\"not\": true}", "1")).isEqualTo("at /: must not match the schema in not");
    }

    // --- if, then, else ---

    @Test
    void ifChoosesThenOrElse() {
        String schema = """
                {"if": {"properties": {"mode": {"const": "write"}}, "required": ["mode"]},
                 "then": {"required": ["path"]},
                 "else": {"properties": {"path": false}}}""";

        assertThat(violation(schema, "{\"mode\": \"write\", \"path\": \"/x\"}")).isNull();
        assertThat(violation(schema, "{\"mode\": \"write\"}")).isEqualTo("at /: required property 'path' is missing");
        assertThat(violation(schema, "{\"mode\": \"read\"}")).isNull();
        assertThat(violation(schema, "{\"mode\": \"read\", \"path\": \"/x\"}")).isEqualTo("at /path: no value is allowed here");
    }

    @Test
    void thenAndElseWithoutIfAndIfAloneCheckNothing() {
        assertThat(violation("{\"then\": false, \"else\": false}", "1")).isNull();
        assertThat(violation("{\"if\": false}", "1")).isNull();
        assertThat(violation("{\"if\": true, \"else\": false}", "1")).isNull();
        assertThat(violation("{\"if\": true, \"then\": false}", "1")).isEqualTo("at /: no value is allowed here");
    }

    // --- compiling ---

    @Test
    void reportsMalformedCombinatorsAtTheirPointer() {
        assertThat(problems(json("""
                {"allOf": [], "anyOf": {}, "oneOf": [1], "not": [], "if": "x",
                 "then": {"anyOf": [{"type": "text"}]}}"""), true)).containsExactly(
                "/allOf: expected a non-empty array of schemas",
                "/anyOf: expected a non-empty array of schemas",
                "/oneOf/0: a schema must be an object or a boolean, got number",
                "/not: a schema must be an object or a boolean, got array",
                "/if: a schema must be an object or a boolean, got string",
                "/then/anyOf/0/type: unknown type text; expected one of string, number, integer, boolean, object, array, null");
        assertThat(lenientProblem(json("{\"properties\": {\"a\": {\"oneOf\": []}}}")))
                .isEqualTo("/properties/a/oneOf: expected a non-empty array of schemas");
        assertThat(lenientProblem(json("{\"anyOf\": [{\"minimum\": \"0\"}]}"))).isEqualTo("/anyOf/0/minimum: expected a number");
    }

    @Test
    void strictModeChecksKeywordsInsideEveryBranch() {
        assertThat(problems(json("{\"anyOf\": [{\"type\": \"string\", \"unevaluatedProperties\": false}]}"), true))
                .singleElement().asString().startsWith("/anyOf/0/unevaluatedProperties: unsupported schema keyword");
    }

    // --- never the value ---

    @Test
    void neverPutsTheArgumentValueInACombinatorsViolation() {
        String secret = "sk-live-0123456789";
        List<String> found = new ArrayList<>();
        found.add(violation(json("{\"anyOf\": [{\"maxLength\": 3}, {\"pattern\": \"^x\"}]}"), secret));
        found.add(violation(json("{\"oneOf\": [{\"type\": \"string\"}, {\"minLength\": 1}]}"), secret));
        found.add(violation(json("{\"oneOf\": [{\"enum\": [\"a\"]}, {\"const\": \"b\"}]}"), secret));
        found.add(violation(json("{\"not\": {\"type\": \"string\"}}"), secret));
        found.add(violation(json("{\"allOf\": [{\"type\": \"string\"}, {\"enum\": [\"a\"]}]}"), secret));
        found.add(violation(json("{\"if\": {\"type\": \"string\"}, \"then\": {\"maxLength\": 1}}"), secret));

        assertThat(found).doesNotContainNull().noneMatch(text -> text.contains(secret));
    }
}
