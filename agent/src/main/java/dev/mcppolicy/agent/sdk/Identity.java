package dev.mcppolicy.agent.sdk;

import static dev.mcppolicy.agent.sdk.Reflection.call;
import static dev.mcppolicy.agent.sdk.Reflection.field;
import static dev.mcppolicy.agent.sdk.Reflection.asString;

import dev.mcppolicy.json.CanonicalJson;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Who is calling and whom: the session and caller identity on the server side (hashed credentials, never
 * raw), and on the client side the server's name and the address the client reached it at.
 */
public final class Identity {
    /** The transport-context key under which the agent's HTTP transport hook leaves the hashed credential. */
    public static final String AGENT_PRINCIPAL_KEY = "mcppolicy.principal";
    /** The transport-context key under which the agent's HTTP transport hook leaves who the caller is (issue 32). */
    public static final String AGENT_CALLER_KEY = "mcppolicy.caller";
    /** Where a caller's identity is looked for in a transport context, first found wins; all but ours are hashed here. */
    private static final String[] PRINCIPAL_KEYS = {"principal", AGENT_PRINCIPAL_KEY, "Authorization", "authorization"};

    private Identity() {
    }

    /**
     * Who the caller is (SPEC §3 {@code client} scope): a principal the app's transport-context
     * extractor recorded, else the HTTP {@code Authorization} header the agent's transport hook saw,
     * else one the app's extractor recorded (all hashed, never logged raw), else the self-declared
     * {@code clientInfo.name}.
     */
    public static String clientId(Object exchangeOrContext) {
        return who(exchangeOrContext).clientId();
    }

    /**
     * Who calls, read once per call at the stack's edge (issue 32) and passed down: the decision, its line, the limits'
     * keys and the trace all read this one value.
     *
     * @param sessionId the MCP session of a stateful server exchange ({@code sessionId()} from 0.11; in 0.10 the private
     *     {@code session} field's {@code getId()}), or {@code null} (a stateless transport context)
     * @param clientId the caller's id for {@code client} limits ({@link #clientId}): a hashed credential, else the
     *     declared {@code clientInfo.name}, or {@code null}
     * @param caller what the agent's HTTP transport hook found of a verified caller ({@code CallerOutcome}, or
     *     {@code DeferredCaller} for a principal the request's Reactor chain answers), or {@code null}: none
     */
    public record Who(String sessionId, String clientId, Object caller) {
        /** This value with the caller a deferred principal resolved to. */
        public Who withCaller(Object resolved) {
            return new Who(sessionId, clientId, resolved);
        }
    }

    /**
     * {@link Who} of a server exchange (or a stateless server's transport context): its session, the caller's id and
     * the verified caller, in one pass over the exchange and its transport context.
     */
    public static Who who(Object exchangeOrContext) {
        Shape shape = shapeOf(exchangeOrContext);
        String session = null;
        Object context = exchangeOrContext;
        if (shape.exchange) {
            session = shape.sessionId != null ? asString(Reflection.callGetter(shape.sessionId, exchangeOrContext, "sessionId"))
                    : sessionOf10(exchangeOrContext);
            context = shape.transportContext != null ? Reflection.callGetter(shape.transportContext, exchangeOrContext, "transportContext") : null;
        }
        MethodHandle get = context == null ? null : shape.contextGet(context.getClass());
        String client = principal(get, context);
        if (client == null && shape.exchange) {
            Object info = Reflection.callGetter(shape.clientInfo, exchangeOrContext, "getClientInfo");
            client = info == null ? null : asString(Reflection.callGetter(shape.infoName(info.getClass()), info, "name"));
        }
        return new Who(session, client, get == null ? null : Reflection.call(get, context, AGENT_CALLER_KEY));
    }

    private static String sessionOf10(Object exchange) {
        Object session = field(exchange, "session");
        return session == null ? null : asString(call(session, "getId"));
    }

    /**
     * What the hooks read of one class of exchange, looked up once per class rather than by name on every call
     * (issue 16: a call reads the session, the transport context and the client info, each a lookup by name before).
     */
    private static final class Shape {
        static final Shape NONE = new Shape(null);
        /** Whether the class is an SDK server exchange (its name ends with {@code ServerExchange}); else none below. */
        final boolean exchange;
        /** {@code sessionId()} (0.11 on), or {@code null}: the {@code session} field's {@code getId()} (0.10). */
        final MethodHandle sessionId;
        /** {@code transportContext()}, or {@code null} (before 0.11). */
        final MethodHandle transportContext;
        /** {@code getClientInfo()}, or {@code null} (then reading it fails as it always did). */
        final MethodHandle clientInfo;
        /**
         * The loader of the shape's class: only a class of the same loader is kept below, so that a shape (which lives
         * as long as an SDK class in a parent loader may) never keeps a child loader's classes, as a webapp's, alive.
         */
        private final ClassLoader loader;
        /**
         * The first transport-context class seen with this shape and its {@code get(String)} (or {@code null}), as one
         * pair, so that a reader never sees one half updated; a context of another class is looked up by name.
         */
        private volatile Object[] firstContextGet;
        /** Likewise the first client-info class seen and its {@code name()}. */
        private volatile Object[] firstInfoName;

        Shape(Class<?> type) {
            exchange = type != null && type.getName().endsWith("ServerExchange");
            sessionId = exchange ? Reflection.getter(type, "sessionId") : null;
            transportContext = exchange ? Reflection.getter(type, "transportContext") : null;
            clientInfo = exchange ? Reflection.getter(type, "getClientInfo") : null;
            loader = type == null ? null : type.getClassLoader();
        }

        /**
         * The transport context's {@code get(String)}: on a call the context is nearly always of one class, whose handle
         * is kept here rather than found by name (a {@code ClassValue} and a map) on every call (issue 16).
         */
        MethodHandle contextGet(Class<?> type) {
            Object[] first = firstContextGet;
            if (first != null && first[0] == type) {
                return (MethodHandle) first[1];
            }
            MethodHandle get = Reflection.lookup(type, "get");
            if (first == null && type.getClassLoader() == loader) {
                firstContextGet = new Object[] {type, get};
            }
            return get;
        }

        /** The client info's {@code name()}, kept as {@link #contextGet} is. */
        MethodHandle infoName(Class<?> type) {
            Object[] first = firstInfoName;
            if (first != null && first[0] == type) {
                return (MethodHandle) first[1];
            }
            MethodHandle name = Reflection.getter(type, "name");
            if (first == null && type.getClassLoader() == loader) {
                firstInfoName = new Object[] {type, name};
            }
            return name;
        }
    }

    /** A subclass rather than a lambda: nothing is spun for it on a cold JVM. */
    private static final ClassValue<Shape> SHAPES = new ClassValue<Shape>() {
        @Override
        protected Shape computeValue(Class<?> type) {
            return new Shape(type);
        }
    };

    private static Shape shapeOf(Object candidate) {
        return candidate == null ? Shape.NONE : SHAPES.get(candidate.getClass());
    }

    private static String principal(MethodHandle get, Object context) {
        if (get == null) {
            return null;
        }
        for (String key : PRINCIPAL_KEYS) {
            Object value = Reflection.call(get, context, key);
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

    /**
     * A header of a servlet {@code HttpServletRequest} (javax or jakarta), or of a Spring functional
     * {@code ServerRequest} (WebMvc and WebFlux: {@code headers().firstHeader(name)}), or {@code null}.
     */
    public static String header(Object request, String name) {
        if (request == null) {
            return null;
        }
        MethodHandle getHeader = Reflection.lookup(request.getClass(), "getHeader");
        if (getHeader != null) {
            return asString(Reflection.call(getHeader, request, name));
        }
        Object all = Reflection.getter(request.getClass(), "headers") == null ? null : call(request, "headers");
        MethodHandle first = all == null ? null : Reflection.lookup(all.getClass(), "firstHeader");
        return first == null ? null : asString(Reflection.call(first, all, name));
    }

    /**
     * {@code context} as seen through a proxy of its {@code McpTransportContext} interface that also
     * answers {@link #AGENT_PRINCIPAL_KEY}; every other call goes to {@code context}, and a context it
     * returns (SDK 2.2's {@code putAll}) answers the key too. {@code context} itself when it implements no
     * such interface.
     */
    public static Object withPrincipal(Object context, String principal) {
        return withPrincipal(context, principal, null);
    }

    /**
     * {@link #withPrincipal(Object, String)} that also answers {@link #AGENT_CALLER_KEY} with {@code caller} (a
     * {@code CallerOutcome}); a {@code null} principal or caller is not answered.
     */
    public static Object withPrincipal(Object context, String principal, Object caller) {
        Class<?> contract = transportContextInterface(context == null ? null : context.getClass());
        if (contract == null) {
            return context;
        }
        InvocationHandler handler = (proxy, method, args) -> {
            if (args != null && args.length == 1 && method.getName().equals("get")) {
                if (principal != null && AGENT_PRINCIPAL_KEY.equals(args[0])) {
                    return principal;
                }
                if (caller != null && AGENT_CALLER_KEY.equals(args[0])) {
                    return caller;
                }
            }
            Object result;
            try {
                result = method.invoke(context, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            // a context made from this one (SDK 2.2's putAll, which its modern HTTP transport calls) keeps the principal
            return result != null && method.getReturnType() == contract ? withPrincipal(result, principal, caller) : result;
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

    static boolean isExchange(Object candidate) {
        return shapeOf(candidate).exchange;
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
}
