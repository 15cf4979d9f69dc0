package dev.mcppolicy.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.policy.PolicyError;
import dev.mcppolicy.policy.internal.TreeReader;
import java.util.ArrayList;
import java.util.List;

/** Schemas and instances written as JSON text, and the ways the tests compile and check them. */
final class Schemas {
    private Schemas() {
    }

    static Object json(String text) {
        List<PolicyError> errors = new ArrayList<>();
        Object value = new TreeReader(errors).read(text, TreeReader.Format.JSON).toPlain();
        assertThat(errors).as("test JSON").isEmpty();
        return value;
    }

    /** Compiles strictly, asserting that the schema has no problem. */
    static JsonSchema strict(Object schema) {
        List<String> problems = problems(schema, true);
        assertThat(problems).isEmpty();
        return JsonSchema.compile(schema, true, (pointer, message) -> { });
    }

    static String violation(Object schema, Object instance) {
        return strict(schema).firstViolation(instance);
    }

    static String violation(String schema, String instance) {
        return violation(json(schema), json(instance));
    }

    static List<String> problems(Object schema, boolean strict) {
        List<String> problems = new ArrayList<>();
        JsonSchema.compile(schema, strict, (pointer, message) -> problems.add(pointer + ": " + message));
        return problems;
    }

    /** The message {@link JsonSchema#compileLenient} refuses the schema with, or {@code null} when it compiles. */
    static String lenientProblem(Object schema) {
        try {
            JsonSchema.compileLenient(schema);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
