package dev.mcppolicy.agent.sdk;

import static dev.mcppolicy.agent.sdk.Reflection.call;
import static dev.mcppolicy.agent.sdk.Reflection.invoke;
import static dev.mcppolicy.agent.sdk.Reflection.field;
import static dev.mcppolicy.agent.sdk.Reflection.asString;

import dev.mcppolicy.pins.ToolDefinitions;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/** What a call or a tool list holds: a call's tool name and arguments, a list's tools, a tool's input schema. */
public final class ToolLists {
    private ToolLists() {
    }

    /** The tool name and arguments of a server-side {@code tools/call}: raw JSON-RPC params (a Map) or a {@code CallToolRequest}. */
    public static String toolName(Object params) {
        if (params instanceof Map<?, ?> map) {
            Object name = map.get("name");
            return name == null ? "" : name.toString();
        }
        Object name = call(params, "name");
        return name == null ? "" : name.toString();
    }

    /** The URI of a {@code resources/read}: raw JSON-RPC params (a Map) or a {@code ReadResourceRequest}. */
    public static String resourceUri(Object params) {
        Object uri = params instanceof Map<?, ?> map ? map.get("uri") : call(params, "uri");
        return uri == null ? "" : uri.toString();
    }

    @SuppressWarnings("unchecked")
    /** The request's {@code _meta.progressToken}, or {@code null}: raw params (a map) or a {@code CallToolRequest}. */
    public static Object progressToken(Object params) {
        Object meta = params instanceof Map<?, ?> map ? map.get("_meta") : call(params, "meta");
        return meta instanceof Map<?, ?> values ? values.get("progressToken") : null;
    }

    @SuppressWarnings("unchecked") // JSON-RPC params: an object's keys are strings
    public static Map<String, ?> arguments(Object params) {
        Object arguments = params instanceof Map<?, ?> map ? map.get("arguments") : call(params, "arguments");
        return arguments instanceof Map<?, ?> args ? (Map<String, ?>) args : Map.of();
    }

    /**
     * A copy of a {@code ListToolsResult} record holding only the tools {@code keep} accepts; every
     * other component (cursor, meta) is copied as it is, whatever components this version has.
     */
    public static Object filterTools(Object listToolsResult, Predicate<String> keep) throws ReflectiveOperationException {
        if (listToolsResult == null) {
            return null;
        }
        Class<?> type = listToolsResult.getClass();
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        boolean changed = false;
        for (int i = 0; i < components.length; i++) {
            Method accessor = components[i].getAccessor();
            values[i] = accessor.invoke(listToolsResult);
            types[i] = components[i].getType();
            if ("tools".equals(components[i].getName()) && values[i] instanceof List<?> tools) {
                List<Object> kept = new ArrayList<>(tools.size());
                for (Object tool : tools) {
                    if (keep.test(asString(call(tool, "name")))) {
                        kept.add(tool);
                    }
                }
                changed = kept.size() != tools.size();
                values[i] = kept;
            }
        }
        if (!changed) {
            return listToolsResult;
        }
        Constructor<?> canonical = type.getDeclaredConstructor(types);
        return canonical.newInstance(values);
    }

    /**
     * The {@code inputSchema} a server advertises for {@code tool}, as a JSON-like map, or {@code null}
     * when it cannot be found (the engine then denies an {@code input_schema} rule: fail closed). Found in
     * the server's {@code tools} list of tool specifications.
     */
    public static Map<String, ?> inputSchema(Object server, String tool) {
        Object specifications = server == null ? null : field(server, "tools");
        if (!(specifications instanceof Iterable<?> all)) {
            return null;
        }
        for (Object specification : all) {
            Object definition = call(specification, "tool");
            if (definition != null && tool.equals(call(definition, "name"))) {
                return inputSchemaOf(definition);
            }
        }
        return null;
    }

    /**
     * A {@code McpSchema.Tool}'s {@code inputSchema} as a JSON-like map: a {@code Map} from SDK 2.1, a
     * {@code McpSchema.JsonSchema} record before.
     */
    public static Map<String, ?> inputSchemaOf(Object tool) {
        return schemaAsMap(call(tool, "inputSchema"));
    }

    /**
     * The SHA-256 of a {@code McpSchema.Tool}'s canonical definition (SPEC §14, {@link ToolDefinitions}): the same digits
     * on every SDK version and from {@code scan}, which reads the wire's JSON.
     */
    public static String definitionSha256(Object tool) {
        // SDK 0.10's Tool has no annotations: absent, as a tool without them is
        return ToolDefinitions.sha256(asString(call(tool, "name")), asString(Reflection.callIfPresent(tool, "description")),
                inputSchemaOf(tool), schemaAsMap(Reflection.callIfPresent(tool, "annotations")));
    }

    /** The tools of a {@code ListToolsResult}, by name, each with its definition's SHA-256 ({@link #definitionSha256}). */
    public static Map<String, String> definitionHashes(Object listToolsResult) {
        Map<String, String> hashes = new LinkedHashMap<>();
        forEachTool(listToolsResult, (name, tool) -> {
            if (name != null) {
                hashes.put(name, definitionSha256(tool));
            }
        });
        return hashes;
    }

    /** Whether a {@code ListToolsResult} is a page with more after it (a {@code nextCursor}). */
    public static boolean hasNextPage(Object listToolsResult) {
        return listToolsResult != null && call(listToolsResult, "nextCursor") != null;
    }

    /** Each {@code McpSchema.Tool} of a {@code ListToolsResult}, by name. */
    public static void forEachTool(Object listToolsResult, BiConsumer<String, Object> action) {
        Object tools = listToolsResult == null ? null : call(listToolsResult, "tools");
        if (tools instanceof Iterable<?> all) {
            for (Object tool : all) {
                action.accept(asString(call(tool, "name")), tool);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> schemaAsMap(Object schema) {
        if (schema == null || schema instanceof Map<?, ?>) {
            return (Map<String, ?>) schema;
        }
        if (!schema.getClass().isRecord()) {
            return null;
        }
        Map<String, Object> map = new LinkedHashMap<>();
        for (RecordComponent component : schema.getClass().getRecordComponents()) {
            Object value = invoke(component.getAccessor(), schema);
            if (value != null) {
                map.put(component.getName().equals("defs") ? "$defs" : component.getName(), value);
            }
        }
        return map;
    }
}
