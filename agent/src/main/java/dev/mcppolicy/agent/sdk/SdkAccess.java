package dev.mcppolicy.agent.sdk;

import dev.mcppolicy.json.CanonicalJson;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The one place that touches MCP SDK and Reactor types, by reflection, so that one agent jar fits SDK
 * 0.10.0 to 2.1.0 whatever class loader holds the SDK. Only members whose shape differs between
 * versions need care here (research/sdk-points.md §4, §5); each is looked up once per class.
 */
public final class SdkAccess {
    private static final String SCHEMA = "io.modelcontextprotocol.spec.McpSchema";
    private static final String MONO = "reactor.core.publisher.Mono";
    private static final int INVALID_PARAMS = -32602;
    /** The transport-context key under which the agent's HTTP transport hook leaves the hashed credential. */
    public static final String AGENT_PRINCIPAL_KEY = "mcppolicy.principal";
    /** Where a caller's identity is looked for in a transport context, first found wins; all but ours are hashed here. */
    private static final String[] PRINCIPAL_KEYS = {"principal", AGENT_PRINCIPAL_KEY, "Authorization", "authorization"};

    private static final ClassValue<Map<String, Optional<Method>>> METHODS = new ClassValue<>() {
        @Override
        protected Map<String, Optional<Method>> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private SdkAccess() {
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

    @SuppressWarnings("unchecked")
    public static Map<String, ?> arguments(Object params) {
        Object arguments = params instanceof Map<?, ?> map ? map.get("arguments") : call(params, "arguments");
        return arguments instanceof Map<?, ?> args ? (Map<String, ?>) args : Map.of();
    }

    /**
     * The MCP session id of a stateful server exchange: {@code sessionId()} from 0.11; in 0.10 the
     * private {@code session} field's {@code getId()}. {@code null} for a stateless transport context.
     */
    public static String sessionId(Object exchange) {
        if (!isExchange(exchange)) {
            return null;
        }
        if (hasMethod(exchange, "sessionId")) {
            return asString(call(exchange, "sessionId"));
        }
        Object session = field(exchange, "session");
        return session == null ? null : asString(call(session, "getId"));
    }

    /**
     * Who the caller is (SPEC §3 {@code client} scope): a principal the app's transport-context
     * extractor recorded, else the HTTP {@code Authorization} header the agent's transport hook saw,
     * else one the app's extractor recorded (all hashed, never logged raw), else the self-declared
     * {@code clientInfo.name}.
     */
    public static String clientId(Object exchangeOrContext) {
        Object context = isExchange(exchangeOrContext)
                ? (hasMethod(exchangeOrContext, "transportContext") ? call(exchangeOrContext, "transportContext") : null)
                : exchangeOrContext;
        String principal = principal(context);
        if (principal != null) {
            return principal;
        }
        if (isExchange(exchangeOrContext)) {
            Object info = call(exchangeOrContext, "getClientInfo");
            return info == null ? null : asString(call(info, "name"));
        }
        return null;
    }

    private static String principal(Object context) {
        Method get = context == null ? null : method(context.getClass(), "get", String.class);
        if (get == null) {
            return null;
        }
        for (String key : PRINCIPAL_KEYS) {
            Object value = invoke(get, context, key);
            if (value != null && !value.toString().isEmpty()) {
                return key.equals(AGENT_PRINCIPAL_KEY) ? value.toString() : principalOf(value.toString());
            }
        }
        return null;
    }

    /** {@code principal:} and the first 16 hex digits of the credential's SHA-256: stable, never the credential. */
    public static String principalOf(String credential) {
        return "principal:" + CanonicalJson.sha256Hex(credential.getBytes(StandardCharsets.UTF_8)).substring(0, 16);
    }

    /** A header of a servlet {@code HttpServletRequest} (javax or jakarta), or {@code null}. */
    public static String header(Object request, String name) {
        return request == null ? null : asString(invoke(method(request.getClass(), "getHeader", String.class), request, name));
    }

    /**
     * {@code context} as seen through a proxy of its {@code McpTransportContext} interface that also
     * answers {@link #AGENT_PRINCIPAL_KEY}; every other call goes to {@code context}. {@code context}
     * itself when it implements no such interface.
     */
    public static Object withPrincipal(Object context, String principal) {
        Class<?> contract = transportContextInterface(context == null ? null : context.getClass());
        if (contract == null) {
            return context;
        }
        InvocationHandler handler = (proxy, method, args) -> {
            if (args != null && args.length == 1 && method.getName().equals("get") && AGENT_PRINCIPAL_KEY.equals(args[0])) {
                return principal;
            }
            try {
                return method.invoke(context, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return Proxy.newProxyInstance(contract.getClassLoader(), new Class<?>[] {contract}, handler);
    }

    private static Class<?> transportContextInterface(Class<?> type) {
        for (Class<?> current = type; current != null; current = current.getSuperclass()) {
            for (Class<?> candidate : current.getInterfaces()) {
                if (candidate.getName().endsWith(".McpTransportContext")) {
                    return candidate;
                }
            }
        }
        return null;
    }

    private static boolean isExchange(Object candidate) {
        return candidate != null && candidate.getClass().getName().endsWith("ServerExchange");
    }

    /** Client side: the {@code serverInfo.name} of the server a client talks to, once initialized. */
    public static String serverName(Object client) {
        Object info = call(client, "getServerInfo");
        return info == null ? null : asString(call(info, "name"));
    }

    /**
     * How a client reached its server, which the server cannot choose: {@code stdio:<command> <args>}
     * (the {@code StdioClientTransport}'s {@code ServerParameters}) or {@code url:<endpoint>} (the
     * HTTP client transports' base URI resolved against their endpoint), the same in SDK 0.10 – 2.1;
     * {@code null} for a transport it does not know (WebFlux, a custom one).
     */
    public static String serverAddress(Object client) {
        Object transport = field(client, "transport");
        if (transport == null) {
            return null;
        }
        Object parameters = field(transport, "params");
        if (parameters != null) {
            Object command = field(parameters, "command");
            Object args = field(parameters, "args");
            if (!(command instanceof String)) {
                return null;
            }
            StringBuilder address = new StringBuilder("stdio:").append(command);
            if (args instanceof List<?> list) {
                for (Object arg : list) {
                    address.append(' ').append(arg);
                }
            }
            return address.toString();
        }
        Object base = field(transport, "baseUri");
        if (base instanceof URI uri) {
            Object endpoint = field(transport, "endpoint");
            if (endpoint == null) {
                endpoint = field(transport, "sseEndpoint");
            }
            try {
                return "url:" + (endpoint instanceof String path ? uri.resolve(path) : uri);
            } catch (IllegalArgumentException e) {
                return "url:" + uri;
            }
        }
        return null;
    }

    public static String clientName(Object client) {
        Object info = call(client, "getClientInfo");
        return info == null ? null : asString(call(info, "name"));
    }

    /** {@code Mono.just(CallToolResult.builder().addTextContent(text).isError(true).build())}, uniform across versions. */
    public static Object deniedResult(ClassLoader sdk, String text) throws ReflectiveOperationException {
        Class<?> result = Class.forName(SCHEMA + "$CallToolResult", false, sdk);
        Object builder = result.getMethod("builder").invoke(null);
        builder = builder.getClass().getMethod("addTextContent", String.class).invoke(builder, text);
        builder = builder.getClass().getMethod("isError", Boolean.class).invoke(builder, Boolean.TRUE);
        return monoJust(sdk, builder.getClass().getMethod("build").invoke(builder));
    }

    /**
     * What the SDK answers for a tool it does not have: {@code McpError} code -32602 "Unknown tool:
     * invalid_tool_name" (0.12+); 0.10 has no error builder and sends "Tool not found" as -32603.
     */
    public static Object unknownToolError(ClassLoader sdk, String tool) throws ReflectiveOperationException {
        Class<?> mcpError = Class.forName("io.modelcontextprotocol.spec.McpError", false, sdk);
        Throwable error;
        Method builder = find(mcpError, "builder", int.class);
        if (builder != null) {
            Object b = builder.invoke(null, INVALID_PARAMS);
            b = b.getClass().getMethod("message", String.class).invoke(b, "Unknown tool: invalid_tool_name");
            b = b.getClass().getMethod("data", Object.class).invoke(b, "Tool not found: " + tool);
            error = (Throwable) b.getClass().getMethod("build").invoke(b);
        } else {
            error = (Throwable) mcpError.getConstructor(Object.class).newInstance("Tool not found: " + tool);
        }
        Class<?> mono = Class.forName(MONO, false, sdk);
        return mono.getMethod("error", Throwable.class).invoke(null, error);
    }

    public static Object monoJust(ClassLoader sdk, Object value) throws ReflectiveOperationException {
        return Class.forName(MONO, false, sdk).getMethod("just", Object.class).invoke(null, value);
    }

    /** {@code Mono.defer(supplier)}: decide when the caller subscribes, not when it builds the call. */
    public static Object monoDefer(ClassLoader sdk, Supplier<?> supplier) throws ReflectiveOperationException {
        return Class.forName(MONO, false, sdk).getMethod("defer", Supplier.class).invoke(null, supplier);
    }

    /** {@code mono.map(function)}. */
    /** {@code Mono.error(error)}, from the Reactor that {@code mono} comes from. */
    public static Object monoError(Object mono, Throwable error) throws ReflectiveOperationException {
        Class<?> monoType = Class.forName(MONO, false, mono.getClass().getClassLoader());
        return monoType.getMethod("error", Throwable.class).invoke(null, error);
    }

    public static Object monoMap(Object mono, Function<Object, Object> function) throws ReflectiveOperationException {
        Class<?> monoType = Class.forName(MONO, false, mono.getClass().getClassLoader());
        return monoType.getMethod("map", Function.class).invoke(mono, function);
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

    private static Object call(Object target, String name) {
        if (target == null) {
            return null;
        }
        Method method = method(target.getClass(), name);
        if (method == null) {
            throw new IllegalStateException(target.getClass().getName() + " has no method " + name + "()");
        }
        return invoke(method, target);
    }

    private static boolean hasMethod(Object target, String name) {
        return method(target.getClass(), name) != null;
    }

    private static Method method(Class<?> type, String name, Class<?>... parameters) {
        String key = parameters.length == 0 ? name : name + "/" + parameters.length;
        return METHODS.get(type).computeIfAbsent(key, k -> Optional.ofNullable(find(type, name, parameters))).orElse(null);
    }

    private static Method find(Class<?> type, String name, Class<?>... parameters) {
        try {
            Method method = type.getMethod(name, parameters);
            method.trySetAccessible();
            return method;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static Object invoke(Method method, Object target, Object... args) {
        try {
            return method.invoke(target, args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call " + method, e);
        }
    }

    private static Object field(Object target, String name) {
        for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
            try {
                Field field = type.getDeclaredField(name);
                field.setAccessible(true);
                return field.get(target);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    private static String asString(Object value) {
        return value == null ? null : value.toString();
    }
}
