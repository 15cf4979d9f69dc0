package dev.mcppolicy.agent.log;

import java.lang.reflect.Method;

/**
 * The app's own SLF4J logger {@code mcp.policy}, reached by reflection through the class loader that
 * loaded the MCP SDK (the SDK itself depends on slf4j-api), so decisions land in the app's appenders
 * and format. Not used when SLF4J has no provider (its no-op fallback would swallow every decision).
 */
final class Slf4jSink implements DecisionSink {
    private final Object logger;
    private final Method info;
    private final Method warn;
    private final String factory;

    /**
     * The app's SLF4J package, built at run time: the agent bundles an SLF4J of its own for the Redis
     * client, relocated, and the shade plugin rewrites every string constant that names {@code org.slf4j}.
     */
    private static final String APP_SLF4J = "org".concat(".slf4j.");

    private Slf4jSink(Object logger, Method info, Method warn, String factory) {
        this.logger = logger;
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
            return new Slf4jSink(logger, loggerType.getMethod("info", String.class),
                    loggerType.getMethod("warn", String.class), factoryName);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    @Override
    public void accept(boolean denied, String line) {
        try {
            (denied ? warn : info).invoke(logger, line);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("SLF4J logger failed", e);
        }
    }

    @Override
    public String describe() {
        return "SLF4J logger '" + LOGGER_NAME + "' (" + factory + ")";
    }
}
