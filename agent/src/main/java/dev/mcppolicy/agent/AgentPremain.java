package dev.mcppolicy.agent;

import java.lang.instrument.Instrumentation;
import java.util.function.BiConsumer;

/**
 * The doorman: the only class the JVM calls at {@code -javaagent} (or attach) time.
 *
 * <p>Rules for this class, as Datadog's and OpenTelemetry's agents write them down: it catches every
 * {@code Throwable}, prints only to {@code System.err} and hands over. No logging framework, no NIO, no JMX, no
 * ASM here: all of that would run before the app's {@code main} and slow down or break every JVM the agent is
 * put on, MCP or not. It names no other class of the agent but {@link AgentLoader}: it hands over to
 * {@code AgentStart} on the agent's own class loader, where the rest of the agent lives (only the bridge woven
 * code calls stays with the system class loader; see {@link AgentLoader}).
 */
public final class AgentPremain {
    private static final String START = "dev.mcppolicy.agent.AgentStart";

    private AgentPremain() {
    }

    public static void premain(String args, Instrumentation inst) {
        start(args, inst, false);
    }

    public static void agentmain(String args, Instrumentation inst) {
        start(args, inst, true);
    }

    private static void start(String args, Instrumentation inst, boolean lateAttach) {
        try {
            Class<?> start = Class.forName(START, true, AgentLoader.of(AgentPremain.class));
            @SuppressWarnings("unchecked")
            BiConsumer<String, Instrumentation> agent = (BiConsumer<String, Instrumentation>)
                    start.getConstructor(boolean.class).newInstance(lateAttach);
            agent.accept(args, inst);
        } catch (Throwable t) {
            System.err.println("[mcp-policy] ERROR agent failed to start; MCP tool calls are NOT policed: " + t);
            t.printStackTrace(System.err);
        }
    }
}
