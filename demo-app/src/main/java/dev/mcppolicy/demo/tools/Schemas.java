package dev.mcppolicy.demo.tools;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the small JSON Schemas the tools advertise as {@code inputSchema}. */
final class Schemas {
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required;

    private Schemas(List<String> required) {
        this.required = required;
    }

    /** An object schema whose listed properties are required and which admits no other property. */
    static Schemas object(String... required) {
        return new Schemas(List.of(required));
    }

    Schemas string(String name, String description) {
        properties.put(name, Map.of("type", "string", "description", description));
        return this;
    }

    Schemas integer(String name, String description, int minimum, int maximum, int fallback) {
        properties.put(name, Map.of("type", "integer", "description", description, "minimum", minimum,
                "maximum", maximum, "default", fallback));
        return this;
    }

    Schemas bool(String name, String description, boolean fallback) {
        properties.put(name, Map.of("type", "boolean", "description", description, "default", fallback));
        return this;
    }

    Map<String, Object> build() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", Map.copyOf(properties));
        schema.put("required", required);
        schema.put("additionalProperties", false);
        return schema;
    }
}
