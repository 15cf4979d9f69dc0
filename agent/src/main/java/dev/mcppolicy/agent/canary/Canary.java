package dev.mcppolicy.agent.canary;

import dev.mcppolicy.agent.HookedTypes;
import dev.mcppolicy.agent.instrumentation.MethodShape;
import dev.mcppolicy.agent.instrumentation.McpAsyncServerInstrumentation;
import dev.mcppolicy.agent.instrumentation.TypeInstrumentation;
import dev.mcppolicy.agent.status.StartupSummary;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Proves at run time that the hooks fire (BlockHound's self-check, STYLE.md): once the transformer is
 * in place, {@link CanaryTarget} is loaded (no one loads it before), so the JVM hands its bytes to the
 * agent's transformer, which weaves it with the server {@code tools/call} weave; its handler is then called
 * with {@link #PROBE}, which the hooks answer with {@link #ANSWER} without deciding or logging. Getting
 * {@code ANSWER} back shows the transformer runs, the weave verifies, woven code reaches the bridge
 * and the bridge reaches the hooks. Anything else is an ERROR: MCP tool calls would not be policed. The
 * result goes to the startup summary.
 */
public final class Canary {
    /** The params the canary calls with; the hooks answer it with {@link #ANSWER}. */
    public static final Object PROBE = new Object();
    public static final Object ANSWER = new Object();

    private Canary() {
    }

    /** The canary's instrumentation: the server's tools/call weave, on a handler that returns {@code Object}. */
    public static TypeInstrumentation instrumentation() {
        return new TypeInstrumentation() {
            @Override
            public String internalName() {
                return HookedTypes.CANARY;
            }

            @Override
            public List<Hook> hooks() {
                return List.of(new Hook("canary", MethodShape.handlerLambda("toolsCallRequestHandler", MethodShape.OBJECT),
                        McpAsyncServerInstrumentation.CALL, 1));
            }

            @Override
            public boolean announces() {
                return false;
            }
        };
    }

    /** Runs the canary on a daemon thread of its own and says how it went. */
    public static void start(StartupSummary summary) {
        Thread thread = new Thread(new Runnable() {
            @Override
            public void run() {
                check(summary);
            }
        }, "mcp-policy-canary");
        thread.setDaemon(true);
        thread.start();
    }

    static void check(StartupSummary summary) {
        try {
            // its first load, now that the transformer is in place: the JVM hands its bytes to the agent's transformer
            Class<?> target = Class.forName(HookedTypes.CANARY.replace('/', '.'), true, Canary.class.getClassLoader());
            @SuppressWarnings("unchecked")
            BiFunction<Object, Object, Object> handler = (BiFunction<Object, Object, Object>)
                    target.getMethod("toolsCallRequestHandler").invoke(target.getDeclaredConstructor().newInstance());
            Object answer = handler.apply(null, PROBE);
            if (answer == ANSWER) {
                summary.canaryFired();
            } else {
                summary.canaryDidNotFire(String.valueOf(answer));
            }
        } catch (Throwable t) {
            summary.canaryNotChecked(t);
        }
    }
}
