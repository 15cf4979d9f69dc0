package dev.mcppolicy.agent.langchain4j;

import static dev.mcppolicy.agent.sdk.Reflection.field;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;

/**
 * What the hooks read from LangChain4j's MCP client objects and build for it, by member name, the same
 * from 1.0 to 1.18: a request's tool name and arguments, the client's server and name, a tool
 * specification's name and schema, and the denial {@code executeTool} returns.
 */
final class LangChain4jObjects {
    private static final String CLIENT = "dev.langchain4j.mcp.client.DefaultMcpClient";
    private static final String RESULT = "dev.langchain4j.service.tool.ToolExecutionResult";

    /** Per client class: how its {@code executeTool} looks. */
    private static final ClassValue<ExecuteTool> SHAPES = new ClassValue<>() {
        @Override
        protected ExecuteTool computeValue(Class<?> type) {
            Class<?> returns = null;
            boolean withContext = false;
            for (Method method : type.getMethods()) {
                if (!method.getName().equals("executeTool") || Modifier.isStatic(method.getModifiers()) || method.isBridge()
                        || method.getParameterCount() == 0
                        || !method.getParameterTypes()[0].getName().equals("dev.langchain4j.agent.tool.ToolExecutionRequest")) {
                    continue;
                }
                if (method.getParameterCount() == 1) {
                    returns = method.getReturnType();
                } else if (method.getParameterCount() == 2) {
                    withContext = true;
                }
            }
            return new ExecuteTool(returns, withContext);
        }
    };

    private record ExecuteTool(Class<?> returns, boolean withContext) {
    }

    private LangChain4jObjects() {
    }

    /** Per client class: its public instance methods, as {@code name/arity}. */
    private static final ClassValue<java.util.Set<String>> METHODS = new ClassValue<>() {
        @Override
        protected java.util.Set<String> computeValue(Class<?> type) {
            java.util.Set<String> methods = new java.util.HashSet<>();
            for (Method method : type.getMethods()) {
                if (!Modifier.isStatic(method.getModifiers()) && !method.isBridge()) {
                    methods.add(method.getName() + "/" + method.getParameterCount());
                }
            }
            return java.util.Set.copyOf(methods);
        }
    };

    /** Whether the client's class has a public {@code name} of {@code arity} parameters (the invocation context's overloads, 1.11 on). */
    static boolean hasOverload(Object client, String name, int arity) {
        return METHODS.get(client.getClass()).contains(name + "/" + arity);
    }

    /** LangChain4j's own {@code McpException(code, message)}: what its client throws for a JSON-RPC error answer. */
    static RuntimeException mcpException(Object client, int code, String message) throws ReflectiveOperationException {
        Class<?> type = Class.forName("dev.langchain4j.mcp.client.McpException", false, client.getClass().getClassLoader());
        return (RuntimeException) type.getConstructor(int.class, String.class).newInstance(code, message);
    }

    /** The client's own Jackson {@code OBJECT_MAPPER}, which wrote the answers' JSON texts. */
    static Object mapper(Object client) {
        Object mapper = staticField(client.getClass(), "OBJECT_MAPPER");
        if (mapper == null) {
            throw new IllegalStateException(client.getClass().getName() + " has no OBJECT_MAPPER");
        }
        return mapper;
    }

    /** A string accessor's value ({@code uri()}, {@code uriTemplate()}, {@code name()}) of a listed resource, template or prompt. */
    static String string(Object item, String accessor) throws ReflectiveOperationException {
        Object value = call(item, accessor);
        return value == null ? null : value.toString();
    }

    static String toolName(Object request) throws ReflectiveOperationException {
        Object name = call(request, "name");
        return name == null ? "" : name.toString();
    }

    /**
     * The request's arguments (a JSON string) as the client itself reads them: with its own Jackson
     * {@code OBJECT_MAPPER} into an {@code ObjectNode}, so nothing parses one way here and another there
     * (a duplicate key, say). Blank is {@code {}}, as the client takes it. {@code null} when the text is
     * not a JSON object, which the client refuses itself ({@code ToolArgumentsException}) without sending
     * anything; any other failure throws (and is answered by {@code on_error}).
     *
     * <p>Jackson's classes are reached through the mapper, never by name: the agent's build relocates
     * {@code com.fasterxml.jackson} names to its own shaded copy.
     */
    @SuppressWarnings("unchecked")
    static Map<String, ?> arguments(Object client, Object request) throws ReflectiveOperationException {
        Object text = call(request, "arguments");
        String json = text == null || text.toString().isBlank() ? "{}" : text.toString();
        Object mapper = staticField(client.getClass(), "OBJECT_MAPPER");
        if (mapper == null) {
            throw new IllegalStateException(client.getClass().getName() + " has no OBJECT_MAPPER to read arguments with");
        }
        Class<?> objectNode = mapper.getClass().getMethod("createObjectNode").invoke(mapper).getClass();
        Object node;
        try {
            node = mapper.getClass().getMethod("readValue", String.class, Class.class).invoke(mapper, json, objectNode);
        } catch (InvocationTargetException e) {
            if (isNotAJsonObject(e.getCause())) {
                return null;
            }
            throw e;
        }
        if (node == null) {
            return Map.of();
        }
        return (Map<String, ?>) mapper.getClass().getMethod("convertValue", Object.class, Class.class).invoke(mapper, node, Map.class);
    }

    /** Jackson's "this is not JSON" and "this JSON is not an object", as opposed to a failure of the reading itself. */
    private static boolean isNotAJsonObject(Throwable error) {
        for (Class<?> type = error == null ? null : error.getClass(); type != null; type = type.getSuperclass()) {
            String name = type.getSimpleName();
            if (name.equals("StreamReadException") || name.equals("JsonParseException") || name.equals("MismatchedInputException")) {
                return true;
            }
        }
        return false;
    }

    /** The server's {@code serverInfo.name} where this version keeps the initialize result (1.18 on), else {@code null}. */
    static String keptServerName(Object client) throws ReflectiveOperationException {
        Object initialized = field(client, "initializeResult");
        Object result = initialized == null ? null : call(initialized, "getResult");
        Object info = result == null ? null : call(result, "getServerInfo");
        Object name = info == null ? null : call(info, "getName");
        return name == null ? null : name.toString();
    }

    /** The client's {@code key} (its builder's, or a random one). */
    static String key(Object client) throws ReflectiveOperationException {
        Object key = call(client, "key");
        return key == null ? null : key.toString();
    }

    /**
     * {@code result.serverInfo.name} of the initialize answer (LangChain4j's Jackson {@code JsonNode} of the JSON-RPC
     * response, read through its own methods), or {@code null} when it has none.
     */
    static String answeredServerName(Object answer) throws ReflectiveOperationException {
        Object node = answer;
        for (String name : new String[] {"result", "serverInfo", "name"}) {
            if (node == null) {
                return null;
            }
            node = node.getClass().getMethod("get", String.class).invoke(node, name);
        }
        Object text = node == null ? null : node.getClass().getMethod("textValue").invoke(node);
        return text == null ? null : text.toString();
    }

    /**
     * How the client reached its server: {@code stdio:<command> <args>} ({@code StdioMcpTransport}'s
     * command line) or {@code url:<url>} (streamable HTTP, SSE, WebSocket); {@code null} for others.
     */
    static String serverAddress(Object client) {
        Object transport = field(client, "transport");
        if (transport == null) {
            return null;
        }
        if (field(transport, "command") instanceof List<?> command && !command.isEmpty()) {
            StringBuilder address = new StringBuilder("stdio:");
            for (int i = 0; i < command.size(); i++) {
                address.append(i == 0 ? "" : " ").append(command.get(i));
            }
            return address.toString();
        }
        for (String name : new String[] {"url", "sseUrl"}) {
            if (field(transport, name) instanceof String url) {
                return "url:" + url;
            }
        }
        return null;
    }

    static String clientName(Object client) {
        Object name = field(client, "clientName");
        return name == null ? null : name.toString();
    }

    static String specificationName(Object specification) throws ReflectiveOperationException {
        Object name = call(specification, "name");
        return name == null ? null : name.toString();
    }

    /** A {@code ToolSpecification}'s parameters as a JSON Schema map, by LangChain4j's own {@code JsonSchemaElementUtils.toMap}. */
    @SuppressWarnings("unchecked")
    static Map<String, ?> inputSchema(Object specification) throws ReflectiveOperationException {
        Object parameters = call(specification, "parameters");
        if (parameters == null) {
            return null;
        }
        ClassLoader loader = specification.getClass().getClassLoader();
        Class<?> utils = Class.forName("dev.langchain4j.internal.JsonSchemaElementUtils", true, loader);
        Class<?> element = Class.forName("dev.langchain4j.model.chat.request.json.JsonSchemaElement", false, loader);
        return (Map<String, ?>) utils.getMethod("toMap", element).invoke(null, parameters);
    }

    /** What {@code executeTool} returns for a denied call: the text, as an {@code isError} result or as the {@code String} 1.0 returns. */
    static Object deniedResult(Object client, String text) throws ReflectiveOperationException {
        Class<?> returns = SHAPES.get(client.getClass()).returns();
        if (returns == String.class) {
            return text;
        }
        if (returns == null || !returns.getName().equals(RESULT)) {
            throw new IllegalStateException("executeTool of " + client.getClass().getName() + " returns " + returns);
        }
        Object builder = returns.getMethod("builder").invoke(null);
        builder = builder.getClass().getMethod("isError", boolean.class).invoke(builder, true);
        builder = builder.getClass().getMethod("resultText", String.class).invoke(builder, text);
        return builder.getClass().getMethod("build").invoke(builder);
    }

    private static Object call(Object target, String name) throws ReflectiveOperationException {
        Method method = target.getClass().getMethod(name);
        method.trySetAccessible();
        return method.invoke(target);
    }

    private static Object staticField(Class<?> start, String name) {
        for (Class<?> type = start; type != null; type = type.getSuperclass()) {
            if (!type.getName().equals(CLIENT)) {
                continue;
            }
            try {
                Field field = type.getDeclaredField(name);
                field.setAccessible(true);
                return Modifier.isStatic(field.getModifiers()) ? field.get(null) : null;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
        return null;
    }
}
