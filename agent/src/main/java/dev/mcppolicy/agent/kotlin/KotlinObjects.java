package dev.mcppolicy.agent.kotlin;

import static dev.mcppolicy.agent.sdk.Reflection.asString;
import static dev.mcppolicy.agent.sdk.Reflection.call;
import static dev.mcppolicy.agent.sdk.Reflection.field;

import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.pins.ToolDefinitions;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * What the hooks read from the Kotlin MCP SDK's objects and build for it, by member name: requests and their
 * kotlinx.serialization JSON arguments, sessions, tool lists and results, and the coroutine machinery a call that must
 * wait uses ({@code COROUTINE_SUSPENDED}, a continuation resumed on its dispatcher).
 */
final class KotlinObjects {
    private static final String TYPES = "io.modelcontextprotocol.kotlin.sdk.types.";
    /**
     * What the state machines of {@code Server.handleCallTool}, {@code handleReadResource} and {@code handleGetPrompt}
     * are named ({@code Server$handleCallTool$1}, ...): each passes itself when its method resumes (the first call gets
     * its caller's continuation).
     */
    static final String SERVER_STATE = "io.modelcontextprotocol.kotlin.sdk.server.Server$handle";

    private KotlinObjects() {
    }

    /** A {@code CallToolRequest}'s tool name, or a {@code GetPromptRequest}'s prompt name. */
    static String toolName(Object callToolRequest) {
        return asString(call(call(callToolRequest, "getParams"), "getName"));
    }

    /** A {@code ReadResourceRequest}'s URI. */
    static String uri(Object readResourceRequest) {
        return asString(call(call(readResourceRequest, "getParams"), "getUri"));
    }

    /** A {@code GetPromptRequest}'s arguments ({@code Map<String, String>}: kotlinx reads any JSON literal as its text). */
    @SuppressWarnings("unchecked") // a Kotlin Map<String, String>
    static Map<String, ?> promptArguments(Object getPromptRequest) {
        Object arguments = call(call(getPromptRequest, "getParams"), "getArguments");
        return arguments instanceof Map<?, ?> map ? (Map<String, ?>) map : Map.of();
    }

    /** A call's arguments (a kotlinx.serialization {@code JsonObject}) as plain Java. */
    @SuppressWarnings("unchecked") // JSON: an object's keys are strings
    static Map<String, ?> arguments(Object callToolRequest) {
        Object arguments = call(call(callToolRequest, "getParams"), "getArguments");
        return plain(arguments) instanceof Map<?, ?> map ? (Map<String, ?>) map : Map.of();
    }

    /**
     * A kotlinx.serialization JSON value as plain Java: {@code JsonObject} (a {@code Map}) and {@code JsonArray} (a
     * {@code List}) all the way down, a {@code JsonPrimitive} as the string, boolean, number or {@code null} it holds.
     */
    static Object plain(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>(Math.max(4, map.size() * 2));
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                copy.put(String.valueOf(entry.getKey()), plain(entry.getValue()));
            }
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            for (Object item : list) {
                copy.add(plain(item));
            }
            return copy;
        }
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        String content = asString(call(value, "getContent"));
        if (Boolean.TRUE.equals(call(value, "isString"))) {
            return content;
        }
        return literal(content);
    }

    /** A JSON literal that is not a string: {@code null}, a boolean, or a number (integral as {@code Long} or {@code BigInteger}). */
    static Object literal(String content) {
        if (content == null || content.equals("null")) {
            return null;
        }
        if (content.equals("true") || content.equals("false")) {
            return Boolean.valueOf(content);
        }
        try {
            BigDecimal number = new BigDecimal(content);
            if (number.scale() <= 0 && content.indexOf('.') < 0 && content.indexOf('e') < 0 && content.indexOf('E') < 0) {
                BigInteger integral = number.toBigIntegerExact();
                return integral.bitLength() < 64 ? (Object) integral.longValue() : integral;
            }
            return number.doubleValue();
        } catch (NumberFormatException | ArithmeticException e) {
            // not a number kotlinx would write: kept as the text it is
            return content;
        }
    }

    static String sessionId(Object session) {
        return asString(call(session, "getSessionId"));
    }

    /** The {@code clientInfo.name} the session's {@code initialize} declared, or {@code null}. */
    static String clientName(Object session) {
        Object implementation = call(session, "getClientVersion");
        return implementation == null ? null : asString(call(implementation, "getName"));
    }

    /** The {@code serverInfo.name} a client's server declared ({@code Client.getServerVersion()}), or {@code null}. */
    static String serverName(Object client) {
        Object implementation = call(client, "getServerVersion");
        return implementation == null ? null : asString(call(implementation, "getName"));
    }

    /** The client's own {@code clientInfo.name} (its constructor's {@code clientInfo}), or {@code null}. */
    static String ownName(Object client) {
        Object implementation = field(client, "clientInfo");
        return implementation == null ? null : asString(call(implementation, "getName"));
    }

    /** The input schema of the server's tool {@code name} ({@code Server.getTools()[name].tool.inputSchema}), or {@code null}. */
    static Map<String, ?> serverInputSchema(Object server, String name) {
        Object tools = call(server, "getTools");
        Object registered = tools instanceof Map<?, ?> map ? map.get(name) : null;
        return registered == null ? null : inputSchema(call(registered, "getTool"));
    }

    /** A {@code Tool}'s {@code inputSchema} ({@code ToolSchema}: type, properties, required, {@code $defs}) as a JSON-like map. */
    static Map<String, ?> inputSchema(Object tool) {
        Object schema = tool == null ? null : call(tool, "getInputSchema");
        if (schema == null) {
            return null;
        }
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("type", asString(call(schema, "getType")));
        putIfSet(map, "$schema", call(schema, "getSchema"));
        putIfSet(map, "properties", plain(call(schema, "getProperties")));
        putIfSet(map, "required", plain(call(schema, "getRequired")));
        putIfSet(map, "$defs", plain(call(schema, "getDefs")));
        return map;
    }

    private static void putIfSet(Map<String, Object> map, String key, Object value) {
        if (value != null) {
            map.put(key, value);
        }
    }

    static boolean isToolList(Object result) {
        return result != null && result.getClass().getName().equals(TYPES + "ListToolsResult");
    }

    /** The list a {@code handleList...()} or {@code list...} result is, by its type: {@code null} for anything else. */
    static Listed listed(Object result) {
        if (result == null) {
            return null;
        }
        switch (result.getClass().getName()) {
            case TYPES + "ListToolsResult":
                return Listed.TOOLS;
            case TYPES + "ListResourcesResult":
                return Listed.RESOURCES;
            case TYPES + "ListResourceTemplatesResult":
                return Listed.TEMPLATES;
            case TYPES + "ListPromptsResult":
                return Listed.PROMPTS;
            default:
                return null;
        }
    }

    /** A list result: its method, what its entries are, their getter and each entry's key getter. */
    enum Listed {
        TOOLS("tools/list", Kind.TOOL, "getTools", "getName"),
        RESOURCES("resources/list", Kind.RESOURCE, "getResources", "getUri"),
        TEMPLATES("resources/templates/list", Kind.RESOURCE, "getResourceTemplates", "getUriTemplate"),
        PROMPTS("prompts/list", Kind.PROMPT, "getPrompts", "getName");

        final String method;
        final Kind kind;
        final String items;
        final String key;

        Listed(String method, Kind kind, String items, String key) {
            this.method = method;
            this.kind = kind;
            this.items = items;
            this.key = key;
        }

        /** {@code result} with only the entries {@code keep} accepts, its cursor and {@code _meta} kept (the same object when it keeps all). */
        Object filter(Object result, Predicate<String> keep) throws ReflectiveOperationException {
            return filterList(result, items, key, keep);
        }
    }

    /** Each tool of a {@code ListToolsResult}, by name. */
    static Map<String, Object> tools(Object listToolsResult) {
        Map<String, Object> tools = new LinkedHashMap<>();
        Object all = call(listToolsResult, "getTools");
        if (all instanceof Iterable<?> list) {
            for (Object tool : list) {
                tools.put(asString(call(tool, "getName")), tool);
            }
        }
        return tools;
    }

    /** A {@code ListToolsResult} of only the tools {@code keep} accepts, its cursor and {@code _meta} kept. */
    static Object filterTools(Object listToolsResult, Predicate<String> keep) throws ReflectiveOperationException {
        return filterList(listToolsResult, "getTools", "getName", keep);
    }

    /**
     * A list result ({@code ListToolsResult}, {@code ListResourcesResult}, ...: each {@code (list, nextCursor, meta)})
     * of only the entries ({@code items}) whose {@code key} {@code keep} accepts.
     */
    private static Object filterList(Object result, String items, String key, Predicate<String> keep) throws ReflectiveOperationException {
        Object all = call(result, items);
        List<Object> kept = new ArrayList<>();
        boolean dropped = false;
        if (all instanceof Iterable<?> list) {
            for (Object tool : list) {
                if (keep.test(asString(call(tool, key)))) {
                    kept.add(tool);
                } else {
                    dropped = true;
                }
            }
        }
        if (!dropped) {
            return result;
        }
        Class<?> type = result.getClass();
        Class<?> json = Class.forName("kotlinx.serialization.json.JsonObject", false, type.getClassLoader());
        Constructor<?> constructor = type.getConstructor(List.class, String.class, json);
        return constructor.newInstance(kept, call(result, "getNextCursor"), call(result, "getMeta"));
    }

    /** Whether a list result has a next page ({@code nextCursor}). */
    static boolean hasNextPage(Object result) {
        return call(result, "getNextCursor") != null;
    }

    /**
     * Each tool of a {@code ListToolsResult} by name: the SHA-256 of its definition as a pin holds it
     * ({@link ToolDefinitions}: name, description, the input schema the SDK kept, the annotations' title and hints).
     */
    static Map<String, String> definitionHashes(Object listToolsResult) {
        Map<String, String> hashes = new LinkedHashMap<>();
        for (Map.Entry<String, Object> tool : tools(listToolsResult).entrySet()) {
            Object annotations = call(tool.getValue(), "getAnnotations");
            Map<String, Object> hints = null;
            if (annotations != null) {
                hints = new LinkedHashMap<>();
                for (String hint : ToolDefinitions.ANNOTATION_KEYS) {
                    hints.put(hint, call(annotations, "get" + Character.toUpperCase(hint.charAt(0)) + hint.substring(1)));
                }
            }
            hashes.put(tool.getKey(), ToolDefinitions.sha256(tool.getKey(), asString(call(tool.getValue(), "getDescription")),
                    inputSchema(tool.getValue()), hints));
        }
        return hashes;
    }

    /** Whether a continuation's {@code resumeWith} value is a failure ({@code kotlin.Result.Failure}). */
    static boolean isFailure(Object value) {
        return value != null && value.getClass().getName().equals("kotlin.Result$Failure");
    }

    /** A failure's exception. */
    static Throwable exception(Object failure) {
        return (Throwable) field(failure, "exception");
    }

    /**
     * The SDK's {@code McpException(code, message, data)}: a JSON-RPC error answer where a server throws it, the
     * exception a client's caller gets. {@code uri} ({@code null}: none) becomes its {@code data}'s {@code uri}, as the
     * SDK's own "Resource not found" has it.
     */
    static Exception mcpException(ClassLoader sdk, int code, String message, String uri) throws ReflectiveOperationException {
        Class<?> element = Class.forName("kotlinx.serialization.json.JsonElement", false, sdk);
        Object data = uri == null ? null : KotlinAnswers.json(Map.of("uri", uri), sdk);
        return (Exception) Class.forName(TYPES + "McpException", false, sdk).getConstructor(int.class, String.class, element)
                .newInstance(code, message, data);
    }

    /** {@code CallToolResult(listOf(TextContent(text)), isError = true)}: the SPEC §5 denial, or the server's "not found". */
    static Object errorResult(ClassLoader sdk, String text) throws ReflectiveOperationException {
        Class<?> json = Class.forName("kotlinx.serialization.json.JsonObject", false, sdk);
        Class<?> annotations = Class.forName(TYPES + "Annotations", false, sdk);
        Object content = Class.forName(TYPES + "TextContent", false, sdk).getConstructor(String.class, annotations, json)
                .newInstance(text, null, null);
        return Class.forName(TYPES + "CallToolResult", false, sdk).getConstructor(List.class, Boolean.class, json, json)
                .newInstance(List.of(content), Boolean.TRUE, null, null);
    }

    /** What the server answers for a tool it does not have (the agent answers a hidden one the same). */
    static Object toolNotFound(ClassLoader sdk, String tool) throws ReflectiveOperationException {
        return errorResult(sdk, "Tool " + tool + " not found");
    }

    /** {@code COROUTINE_SUSPENDED}: what a {@code suspend} method returns when its continuation gets the result later. */
    static Object suspended(ClassLoader sdk) throws ReflectiveOperationException {
        return accessible(Class.forName("kotlin.coroutines.intrinsics.IntrinsicsKt", false, sdk).getMethod("getCOROUTINE_SUSPENDED"))
                .invoke(null);
    }

    /** Kotlin's {@code Result.failure(t)} as {@code resumeWith} takes it. */
    static Object failure(ClassLoader sdk, Throwable t) throws ReflectiveOperationException {
        return accessible(Class.forName("kotlin.ResultKt", false, sdk).getMethod("createFailure", Throwable.class)).invoke(null, t);
    }

    /**
     * A public method made callable: Kotlin's file facades ({@code IntrinsicsKt}, {@code ResultKt}) inherit their
     * functions from package-private parts, whose methods reflection cannot call as they are.
     */
    private static Method accessible(Method method) {
        method.trySetAccessible();
        return method;
    }

    static void resumeWith(Object continuation, Object result) throws ReflectiveOperationException {
        Class<?> type = Class.forName("kotlin.coroutines.Continuation", false, continuation.getClass().getClassLoader());
        type.getMethod("resumeWith", Object.class).invoke(continuation, result);
    }

    /**
     * Runs {@code work} on the dispatcher of {@code continuation}'s context (its {@code CoroutineDispatcher}), or here
     * when it has none: what goes on after a wait goes on where the coroutine runs, never on the thread that ended it.
     */
    static void dispatch(Object continuation, Runnable work) throws ReflectiveOperationException {
        ClassLoader sdk = continuation.getClass().getClassLoader();
        Object context = call(continuation, "getContext");
        Class<?> contextType = Class.forName("kotlin.coroutines.CoroutineContext", false, sdk);
        Class<?> keyType = Class.forName("kotlin.coroutines.CoroutineContext$Key", false, sdk);
        Class<?> interceptorType = Class.forName("kotlin.coroutines.ContinuationInterceptor", false, sdk);
        Object key = interceptorType.getField("Key").get(null);
        Object interceptor = contextType.getMethod("get", keyType).invoke(context, key);
        Class<?> dispatcherType = Class.forName("kotlinx.coroutines.CoroutineDispatcher", false, sdk);
        if (interceptor != null && dispatcherType.isInstance(interceptor)) {
            dispatcherType.getMethod("dispatch", contextType, Runnable.class).invoke(interceptor, context, work);
        } else {
            work.run();
        }
    }

    /**
     * A continuation that hands {@code delegate} what it is resumed with after {@code map} (a {@code Proxy} of the app's
     * {@code kotlin.coroutines.Continuation}, in the same context as {@code delegate}).
     */
    static Object mapping(Object delegate, UnaryOperator<Object> map) throws ReflectiveOperationException {
        ClassLoader sdk = delegate.getClass().getClassLoader();
        Class<?> type = Class.forName("kotlin.coroutines.Continuation", false, sdk);
        Method getContext = type.getMethod("getContext");
        Method resumeWith = type.getMethod("resumeWith", Object.class);
        InvocationHandler handler = (proxy, method, args) -> {
            switch (method.getName()) {
                case "getContext":
                    return getContext.invoke(delegate);
                case "resumeWith":
                    return resumeWith.invoke(delegate, map.apply(args[0]));
                case "toString":
                    return "mcp-policy filtering " + delegate;
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "equals":
                    return proxy == args[0];
                default:
                    return method.invoke(delegate, args);
            }
        };
        return Proxy.newProxyInstance(sdk, new Class<?>[] {type}, handler);
    }
}
