package dev.mcppolicy.agent.log;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The app's own SLF4J logger {@code mcp.policy}, reached by reflection through the class loader that
 * loaded the MCP SDK (the SDK itself depends on slf4j-api), so decisions land in the app's appenders
 * and format. Not used when SLF4J has no provider (its no-op fallback would swallow every decision).
 * Each line goes through a {@link MethodHandle} bound to the logger, not {@code Method.invoke}: no
 * argument array per line, and a call the JIT compiles like any other.
 */
final class Slf4jSink implements DecisionSink {
    /** The logger's {@code info(String)} and {@code warn(String)}, bound to it: {@code (String)void}. */
    private final MethodHandle info;
    private final MethodHandle warn;
    private final String factory;

    /**
     * The app's SLF4J package, built at run time: the agent bundles an SLF4J of its own for the Redis
     * client, relocated, and the shade plugin rewrites every string constant that names {@code org.slf4j}.
     */
    private static final String APP_SLF4J = "org".concat(".slf4j.");

    private Slf4jSink(MethodHandle info, MethodHandle warn, String factory) {
        this.info = info;
        this.warn = warn;
        this.factory = factory;
    }

    /** The app's SLF4J logger, or {@code null} when SLF4J is absent or has no real provider. */
    static Slf4jSink find(ClassLoader loader) {
        try {
            Class<?> loggerFactory = Class.forName(APP_SLF4J + "LoggerFactory", true, loader);
            Object factory = loggerFactory.getMethod("getILoggerFactory").invoke(null);
            String factoryName = factory == null ? "none" : factory.getClass().getName();
            if (factory == null || factoryName.startsWith(APP_SLF4J + "helpers.NOP")
                    || factoryName.startsWith(APP_SLF4J + "helpers.SubstituteLoggerFactory")) {
                return null;
            }
            Object logger = loggerFactory.getMethod("getLogger", String.class).invoke(null, LOGGER_NAME);
            Class<?> loggerType = Class.forName(APP_SLF4J + "Logger", false, loader);
            MethodType line = MethodType.methodType(void.class, String.class);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            return new Slf4jSink(lookup.findVirtual(loggerType, "info", line).bindTo(logger),
                    lookup.findVirtual(loggerType, "warn", line).bindTo(logger), factoryName);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    @Override
    public void accept(boolean denied, String line) {
        try {
            if (denied) {
                warn.invokeExact(line);
            } else {
                info.invokeExact(line);
            }
        } catch (Throwable t) {
            // whatever the app's logger throws, as Method.invoke wrapped it: the line goes to stderr instead
            throw new IllegalStateException("SLF4J logger failed", t);
        }
    }

    @Override
    public String describe() {
        return "SLF4J logger '" + LOGGER_NAME + "' (" + factory + ")";
    }
}
