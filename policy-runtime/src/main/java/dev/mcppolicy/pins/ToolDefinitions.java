package dev.mcppolicy.pins;

import dev.mcppolicy.json.CanonicalJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tool's canonical definition and its SHA-256 (SPEC §14): what a pin holds. The same text whoever read the tool: the
 * agent from the SDK's {@code McpSchema.Tool} of any version, {@code scan} from the wire's JSON. So it holds what every
 * SDK version keeps of a tool: its {@code name}, {@code description}, the {@code inputSchema}'s {@code type},
 * {@code properties}, {@code required}, {@code additionalProperties}, {@code $defs} and {@code definitions} (the
 * SDK's {@code JsonSchema} record before 2.1 keeps no other key), and the {@code annotations}' {@code title} and four
 * hints; absent and {@code null} members are left out, and the JSON is canonical (keys sorted, numbers in one form).
 */
public final class ToolDefinitions {
    static final List<String> SCHEMA_KEYS = List.of("type", "properties", "required", "additionalProperties", "$defs",
            "definitions");
    public static final List<String> ANNOTATION_KEYS = List.of("title", "readOnlyHint", "destructiveHint", "idempotentHint",
            "openWorldHint");

    private ToolDefinitions() {
    }

    /**
     * The canonical definition, JSON-like.
     *
     * @param inputSchema the tool's {@code inputSchema} as a JSON-like map, or {@code null}
     * @param annotations its {@code annotations} as a JSON-like map, or {@code null}
     */
    public static Map<String, Object> canonical(String name, String description, Map<String, ?> inputSchema,
                                                Map<String, ?> annotations) {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("name", name == null ? "" : name);
        if (description != null) {
            definition.put("description", description);
        }
        Map<String, Object> schema = pick(inputSchema, SCHEMA_KEYS);
        if (schema != null) {
            definition.put("inputSchema", schema);
        }
        Map<String, Object> hints = pick(annotations, ANNOTATION_KEYS);
        if (hints != null) {
            definition.put("annotations", hints);
        }
        return definition;
    }

    /** The hex SHA-256 of the canonical definition. */
    public static String sha256(String name, String description, Map<String, ?> inputSchema, Map<String, ?> annotations) {
        return CanonicalJson.sha256(canonical(name, description, inputSchema, annotations));
    }

    private static Map<String, Object> pick(Map<String, ?> values, List<String> keys) {
        if (values == null) {
            return null;
        }
        Map<String, Object> picked = new LinkedHashMap<>();
        for (String key : keys) {
            Object value = values.get(key);
            if (value != null) {
                picked.put(key, value);
            }
        }
        return picked.isEmpty() ? null : picked;
    }
}
