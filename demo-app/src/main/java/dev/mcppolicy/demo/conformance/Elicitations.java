package dev.mcppolicy.demo.conformance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code requestedSchema}s of the elicitation fixtures: flat objects of primitive fields. */
final class Elicitations {
    private Elicitations() {
    }

    static Map<String, Object> usernameAndEmail() {
        return object(fields(
                "username", Map.of("type", "string", "description", "User's response"),
                "email", Map.of("type", "string", "description", "User's email address")));
    }

    /** SEP-1034: a default for each primitive type, which a client fills in for omitted fields. */
    static Map<String, Object> primitivesWithDefaults() {
        return object(fields(
                "name", Map.of("type", "string", "default", "John Doe"),
                "age", Map.of("type", "integer", "default", 30),
                "score", Map.of("type", "number", "default", 95.5),
                "status", Map.of("type", "string", "enum", List.of("active", "inactive", "pending"),
                        "default", "active"),
                "verified", Map.of("type", "boolean", "default", true)));
    }

    /** SEP-1330: single and multiple choice, each untitled and titled, plus the legacy {@code enumNames}. */
    static Map<String, Object> enumVariants() {
        List<String> options = List.of("option1", "option2", "option3");
        return object(fields(
                "untitledSingle", Map.of("type", "string", "enum", options),
                "titledSingle", Map.of("type", "string", "oneOf", titled("Option")),
                "legacyEnum", Map.of("type", "string", "enum", List.of("opt1", "opt2", "opt3"),
                        "enumNames", List.of("Option One", "Option Two", "Option Three")),
                "untitledMulti", Map.of("type", "array", "items", Map.of("type", "string", "enum", options)),
                "titledMulti", Map.of("type", "array", "items", Map.of("anyOf", titled("Choice")))));
    }

    private static List<Map<String, String>> titled(String noun) {
        return List.of(
                Map.of("const", "value1", "title", "First " + noun),
                Map.of("const", "value2", "title", "Second " + noun),
                Map.of("const", "value3", "title", "Third " + noun));
    }

    /** Keeps the fields in the order given, so a client shows them in that order. */
    private static Map<String, Object> fields(Object... namesAndSchemas) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < namesAndSchemas.length; i += 2) {
            fields.put((String) namesAndSchemas[i], namesAndSchemas[i + 1]);
        }
        return fields;
    }

    private static Map<String, Object> object(Map<String, Object> properties) {
        return Map.of("type", "object", "properties", properties, "required", List.copyOf(properties.keySet()));
    }
}
