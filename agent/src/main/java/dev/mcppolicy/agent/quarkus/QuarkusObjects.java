package dev.mcppolicy.agent.quarkus;

import static dev.mcppolicy.agent.sdk.Reflection.asString;
import static dev.mcppolicy.agent.sdk.Reflection.call;
import static dev.mcppolicy.agent.sdk.Reflection.field;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * What the hooks read from the Quarkus MCP server's objects (Vert.x JSON messages, its {@code McpRequest} and
 * connection, its tool manager) and build for it (the answers a denial takes, Vert.x futures), by member name. The
 * members the hot path uses are resolved once per class loader of the extension ({@link Api}).
 */
final class QuarkusObjects {
    /** The JSON-RPC code Quarkus answers a tool it does not have with ({@code INVALID_PARAMS}). */
    static final int INVALID_PARAMS = -32602;

    private static final ClassValue<Api> APIS = new ClassValue<>() {
        @Override
        protected Api computeValue(Class<?> handler) {
            try {
                return new Api(handler.getClassLoader());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("the Quarkus MCP server's API is not the one the agent knows: " + e, e);
            }
        }
    };

    private QuarkusObjects() {
    }

    /** The members of Vert.x and the extension the hooks call, from the loader of the extension's {@code ToolMessageHandler}. */
    static Api api(Object handler) {
        return APIS.get(handler.getClass());
    }

    static final class Api {
        private final MethodHandle getJsonObject;
        private final MethodHandle getString;
        private final MethodHandle getValue;
        private final MethodHandle getMap;
        private final MethodHandle getList;
        private final MethodHandle add;
        private final MethodHandle sendResult;
        private final MethodHandle sendError;
        private final MethodHandle toolError;
        private final MethodHandle currentContext;
        private final MethodHandle fromCompletionStage;
        private final MethodHandle compose;
        private final MethodHandle composeBoth;
        private final MethodHandle succeededWith;
        private final MethodHandle failed;
        private final MethodHandle mcpException;
        private final MethodHandle succeeded;
        private final MethodHandle encode;
        private final MethodHandle decode;
        private final MethodHandle getTool;
        private final Class<?> jsonObject;
        private final Class<?> jsonArray;

        Api(ClassLoader loader) throws ReflectiveOperationException {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            jsonObject = Class.forName("io.vertx.core.json.JsonObject", false, loader);
            jsonArray = Class.forName("io.vertx.core.json.JsonArray", false, loader);
            Class<?> sender = Class.forName("io.quarkiverse.mcp.server.runtime.Sender", false, loader);
            Class<?> future = Class.forName("io.vertx.core.Future", false, loader);
            Class<?> context = Class.forName("io.vertx.core.Context", false, loader);
            Class<?> vertx = Class.forName("io.vertx.core.Vertx", false, loader);
            Class<?> toolResponse = Class.forName("io.quarkiverse.mcp.server.ToolResponse", false, loader);
            getJsonObject = generic(lookup.findVirtual(jsonObject, "getJsonObject", MethodType.methodType(jsonObject, String.class)));
            getString = generic(lookup.findVirtual(jsonObject, "getString", MethodType.methodType(String.class, String.class)));
            getValue = generic(lookup.findVirtual(jsonObject, "getValue", MethodType.methodType(Object.class, String.class)));
            getMap = generic(lookup.findVirtual(jsonObject, "getMap", MethodType.methodType(Map.class)));
            getList = generic(lookup.findVirtual(jsonArray, "getList", MethodType.methodType(List.class)));
            add = generic(lookup.findVirtual(jsonArray, "add", MethodType.methodType(jsonArray, Object.class)));
            sendResult = generic(lookup.findVirtual(sender, "sendResult", MethodType.methodType(future, Object.class, Object.class)));
            sendError = generic(lookup.findVirtual(sender, "sendError", MethodType.methodType(future, Object.class, int.class, String.class)));
            toolError = generic(lookup.findStatic(toolResponse, "error", MethodType.methodType(toolResponse, String.class)));
            currentContext = generic(lookup.findStatic(vertx, "currentContext", MethodType.methodType(context)));
            fromCompletionStage = generic(lookup.findStatic(future, "fromCompletionStage",
                    MethodType.methodType(future, CompletionStage.class, context)));
            compose = generic(lookup.findVirtual(future, "compose", MethodType.methodType(future, Function.class)));
            composeBoth = generic(lookup.findVirtual(future, "compose", MethodType.methodType(future, Function.class, Function.class)));
            succeededWith = generic(lookup.findStatic(future, "succeededFuture", MethodType.methodType(future, Object.class)));
            failed = generic(lookup.findStatic(future, "failedFuture", MethodType.methodType(future, Throwable.class)));
            mcpException = generic(lookup.findConstructor(Class.forName("io.quarkiverse.mcp.server.McpException", false, loader),
                    MethodType.methodType(void.class, String.class, int.class)));
            succeeded = generic(lookup.findStatic(future, "succeededFuture", MethodType.methodType(future)));
            Class<?> json = Class.forName("io.vertx.core.json.Json", false, loader);
            encode = generic(lookup.findStatic(json, "encode", MethodType.methodType(String.class, Object.class)));
            decode = generic(lookup.findStatic(json, "decodeValue", MethodType.methodType(Object.class, String.class)));
            Class<?> toolManager = Class.forName("io.quarkiverse.mcp.server.ToolManager", false, loader);
            getTool = generic(lookup.findVirtual(toolManager, "getTool",
                    MethodType.methodType(Class.forName("io.quarkiverse.mcp.server.ToolManager$ToolInfo", false, loader), String.class)));
        }

        private static MethodHandle generic(MethodHandle handle) {
            return handle.asType(handle.type().generic());
        }

        /** A {@code tools/call} message's {@code params}, or {@code null}. */
        Object params(Object message) throws Throwable {
            return message == null ? null : (Object) getJsonObject.invokeExact(message, (Object) "params");
        }

        String string(Object json, String key) throws Throwable {
            return json == null ? null : (String) (Object) getString.invokeExact(json, (Object) key);
        }

        Object id(Object message) throws Throwable {
            return (Object) getValue.invokeExact(message, (Object) "id");
        }

        /**
         * A call's {@code arguments} as plain Java ({@code Map}, {@code List}, strings, numbers, booleans, {@code null}):
         * Vert.x's {@code JsonObject}/{@code JsonArray} are unwrapped all the way down, so conditions see JSON values.
         */
        @SuppressWarnings("unchecked") // JSON: an object's keys are strings
        Map<String, ?> arguments(Object params) throws Throwable {
            Object arguments = params == null ? null : (Object) getValue.invokeExact(params, (Object) "arguments");
            Object plain = plain(arguments);
            return plain instanceof Map<?, ?> map ? (Map<String, ?>) map : Map.of();
        }

        /**
         * A Vert.x JSON value as plain Java. Anything else Vert.x would encode (a Jackson {@code ObjectNode}, as the
         * extension's generated input schemas are, a record) is encoded and decoded by Vert.x first.
         */
        Object plain(Object value) throws Throwable {
            return plain(value, true);
        }

        private Object plain(Object value, boolean reencode) throws Throwable {
            if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
                return value;
            }
            if (jsonObject.isInstance(value)) {
                return plain((Object) getMap.invokeExact(value), reencode);
            }
            if (jsonArray.isInstance(value)) {
                return plain((Object) getList.invokeExact(value), reencode);
            }
            if (value instanceof Map<?, ?> map) {
                Map<String, Object> copy = new LinkedHashMap<>(Math.max(4, map.size() * 2));
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    copy.put(String.valueOf(entry.getKey()), plain(entry.getValue(), reencode));
                }
                return copy;
            }
            if (value instanceof List<?> list) {
                List<Object> copy = new ArrayList<>(list.size());
                for (Object item : list) {
                    copy.add(plain(item, reencode));
                }
                return copy;
            }
            if (reencode) {
                return plain((Object) decode.invokeExact((Object) (String) (Object) encode.invokeExact(value)), false);
            }
            return value.toString();
        }

        /** {@code tools.add(tool)}. */
        Object add(Object tools, Object tool) throws Throwable {
            return (Object) add.invokeExact(tools, tool);
        }

        /** {@code request.sender().sendResult(id, ToolResponse.error(text))}: the §5 denial, as the extension answers a failed tool. */
        Object sendDenied(Object request, Object id, String text) throws Throwable {
            Object response = (Object) toolError.invokeExact((Object) text);
            return (Object) sendResult.invokeExact(call(request, "sender"), id, response);
        }

        /** {@code request.sender().sendError(id, -32602, "Invalid tool name: " + tool)}: what the extension answers for a tool it does not have. */
        Object sendUnknownTool(Object request, Object id, String tool) throws Throwable {
            return (Object) sendError.invokeExact(call(request, "sender"), id, (Object) Integer.valueOf(INVALID_PARAMS),
                    (Object) ("Invalid tool name: " + tool));
        }

        /** {@code request.sender().sendError(id, code, text)}: a JSON-RPC error answer. */
        Object sendError(Object request, Object id, int code, String text) throws Throwable {
            return (Object) sendError.invokeExact(call(request, "sender"), id, (Object) Integer.valueOf(code), (Object) text);
        }

        /** {@code ToolResponse.error(text)}: an {@code isError} tool answer. */
        Object toolError(String text) throws Throwable {
            return (Object) toolError.invokeExact((Object) text);
        }

        /** {@code future.compose(onSuccess, onFailure)}. */
        Object compose(Object future, Function<Object, Object> onSuccess, Function<Object, Object> onFailure) throws Throwable {
            return (Object) composeBoth.invokeExact(future, (Object) onSuccess, (Object) onFailure);
        }

        /** {@code Future.succeededFuture(value)}. */
        Object succeeded(Object value) throws Throwable {
            return (Object) succeededWith.invokeExact(value);
        }

        /** {@code Future.failedFuture(error)}. */
        Object failed(Throwable error) throws Throwable {
            return (Object) failed.invokeExact((Object) error);
        }

        /** The extension's {@code new McpException(message, code)}: a JSON-RPC error its handlers answer with {@code code}. */
        RuntimeException mcpException(String message, int code) throws Throwable {
            return (RuntimeException) (Object) mcpException.invokeExact((Object) message, (Object) Integer.valueOf(code));
        }

        /**
         * A Vert.x {@code Future} that completes on the calling thread's Vert.x context (the request's) once {@code stage}
         * does, then goes on with {@code then}, which returns the {@code Future} to end with.
         */
        Object after(CompletionStage<?> stage, Function<Object, Object> then) throws Throwable {
            Object context = (Object) currentContext.invokeExact();
            Object waiting = (Object) fromCompletionStage.invokeExact((Object) stage, context);
            return (Object) compose.invokeExact(waiting, (Object) then);
        }

        /** {@code Future.succeededFuture()}: an answer of nothing (a cancelled call). */
        Object nothing() throws Throwable {
            return (Object) succeeded.invokeExact();
        }
    }

    /** The MCP session: the connection's id ({@code McpConnection.id()}). */
    static String sessionId(Object request) {
        return asString(call(call(request, "connection"), "id"));
    }

    /** Who the caller is (SPEC §3 {@code client} scope): the {@code clientInfo.name} its {@code initialize} declared. */
    static String clientName(Object request) {
        Object initial = call(call(request, "connection"), "initialRequest");
        Object implementation = initial == null ? null : call(initial, "implementation");
        return implementation == null ? null : asString(call(implementation, "name"));
    }

    /**
     * The {@code inputSchema} the server advertises for {@code tool}, as plain Java: the handler's tool manager's
     * {@code getTool(name).asJson()}; {@code null} for a tool it does not have.
     */
    static Map<String, ?> inputSchema(Api api, Object handler, String tool) throws Throwable {
        Object manager = field(handler, "manager");
        Object info = manager == null ? null : (Object) api.getTool.invokeExact(manager, (Object) tool);
        if (info == null) {
            return null;
        }
        Map<String, ?> known = SCHEMAS.get(info);
        if (known != null) {
            return known;
        }
        Map<String, ?> schema = inputSchemaOf(api, info);
        if (schema != null) {
            SCHEMAS.put(info, schema);
        }
        return schema;
    }

    /** By tool (its {@code ToolInfo}, one per registered tool): the schema, read once. */
    private static final Map<Object, Map<String, ?>> SCHEMAS = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    private static Map<String, ?> inputSchemaOf(Api api, Object info) throws Throwable {
        Object json = call(info, "asJson");
        Object schema = json == null ? null : api.plain((Object) api.getValue.invokeExact(json, (Object) "inputSchema"));
        @SuppressWarnings("unchecked") // JSON: an object's keys are strings
        Map<String, ?> map = schema instanceof Map<?, ?> m ? (Map<String, ?>) m : null;
        return map;
    }
}
