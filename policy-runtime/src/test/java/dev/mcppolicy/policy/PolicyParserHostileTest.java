package dev.mcppolicy.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import dev.mcppolicy.Hostile;
import dev.mcppolicy.policy.internal.TreeReader;
import dev.mcppolicy.schema.JsonSchema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Regressions for what {@link PolicyFuzzTest} and review found in the parser (issue 8, item 5). */
class PolicyParserHostileTest {

    private static List<PolicyError> errors(String text, PolicyParser.Format format) {
        return Hostile.onSmallStack(() -> catchThrowableOfType(PolicyException.class,
                () -> PolicyParser.parse(text, format, "p")).errors());
    }

    /** Where the first array too deep sits under {@code /x}: the root object is level 1, {@code /x} level 2. */
    private static final String TOO_DEEP_AT = "/x" + "/0".repeat(TreeReader.MAX_DEPTH - 1);
    private static final String TOO_DEEP = "objects and arrays nest more than 64 levels deep here; a policy needs far fewer";

    @Test
    void deepYamlFlowNestingIsAnErrorNotAStackOverflow() {
        String text = "version: \"1\"\nx: " + "[".repeat(10_000) + "]".repeat(10_000) + "\n";

        List<PolicyError> errors = errors(text, PolicyParser.Format.YAML);

        assertThat(errors).extracting(PolicyError::pointer, PolicyError::message)
                .containsExactly(tuple(TOO_DEEP_AT, TOO_DEEP));
    }

    @Test
    void deepYamlBlockNestingIsAnErrorNotAStackOverflow() {
        StringBuilder text = new StringBuilder("version: \"1\"\nx:\n");
        for (int i = 1; i <= 3_000; i++) {
            text.append(" ".repeat(i)).append("k:\n");
        }

        List<PolicyError> errors = errors(text.toString(), PolicyParser.Format.YAML);

        assertThat(errors).extracting(PolicyError::pointer, PolicyError::message)
                .containsExactly(tuple("/x" + "/k".repeat(TreeReader.MAX_DEPTH - 1), TOO_DEEP));
    }

    @Test
    void deepJsonNestingIsAnErrorAtItsPointer() {
        String text = "{\"version\":\"1\",\"x\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}";

        assertThat(errors(text, PolicyParser.Format.JSON)).extracting(PolicyError::pointer, PolicyError::message)
                .containsExactly(tuple(TOO_DEEP_AT, TOO_DEEP));
    }

    @Test
    void nestingUpToTheLimitIsRead() {
        String text = "{\"version\":\"1\",\"x\":" + "[".repeat(TreeReader.MAX_DEPTH - 1) + "]".repeat(TreeReader.MAX_DEPTH - 1) + "}";

        assertThat(errors(text, PolicyParser.Format.JSON)).extracting(PolicyError::pointer).containsExactly("/x");
    }

    @Test
    void aSchemaTypeOfNullIsAnErrorNotANullPointerException() {
        String text = """
                version: "1"
                tools:
                  t: {arguments: {type: object, properties: {path: {type: null}}}}
                """;

        assertThat(errors(text, PolicyParser.Format.YAML)).containsExactly(new PolicyError(
                "/tools/t/arguments/properties/path/type", 3, 59,
                "unknown type null; expected one of string, number, integer, boolean, object, array, null"));
    }

    @Test
    void aRegularExpressionLongerThanTheLimitIsAnErrorBeforeRe2CompilesIt() {
        String longest = "a".repeat(JsonSchema.MAX_PATTERN_LENGTH);
        String tooLong = "ab ".repeat(400_000);
        String text = "{\"version\":\"1\",\"tools\":{"
                + "\"ok\":{\"deny_if\":[{\"path\":\"c\",\"op\":\"regex\",\"value\":\"" + longest + "\"}]},"
                + "\"t\":{\"deny_if\":[{\"path\":\"c\",\"op\":\"regex\",\"value\":\"" + tooLong + "\"}],"
                + "\"arguments\":{\"properties\":{\"c\":{\"pattern\":\"" + tooLong + "\"}}}}}}";

        assertThat(errors(text, PolicyParser.Format.JSON)).extracting(PolicyError::pointer, PolicyError::message).containsExactly(
                tuple("/tools/t/deny_if/0/value",
                        "a regular expression may be at most 4096 characters long, got 1200000"),
                tuple("/tools/t/arguments/properties/c/pattern",
                        "a regular expression may be at most 4096 characters long, got 1200000"));
    }

    @Test
    void numbersBeyondADoubleAreOrdinaryErrorsWhereCountsAreExpected() {
        String text = """
                {"version": "1", "tools": {"t": {
                  "limits": [{"window": 1e400000000, "max": 1e400000000}],
                  "require": [{"path": "a", "op": "max_length", "value": -1e400}]}}}
                """;

        assertThat(errors(text, PolicyParser.Format.JSON)).extracting(PolicyError::pointer, PolicyError::message).containsExactly(
                tuple("/tools/t/limits/0/window", "expected second|minute|hour|day, a whole number "
                        + "of seconds (60), or a duration like 30s, 5m, 1h, 1d; got the number Infinity"),
                tuple("/tools/t/limits/0/max",
                        "expected a whole number of calls from 1 to 2147483647, got the number Infinity"),
                tuple("/tools/t/require/0/value",
                        "op 'max_length' takes a non-negative integer, got the number -Infinity"));
    }
}
