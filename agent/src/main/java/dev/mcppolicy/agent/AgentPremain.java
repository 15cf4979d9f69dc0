package dev.mcppolicy.agent;

import java.lang.instrument.Instrumentation;

/**
 * The doorman: the only class the JVM calls at {@code -javaagent} (or attach) time.
 *
 * <p>Rules for this class, as Datadog's and OpenTelemetry's agents write them down: it guards against
 * a second start, catches every {@code Throwable}, prints only to {@code System.err} and hands over.
 * No logging framework, no NIO, no JMX, no ASM here: all of that would run before the app's
 * {@code main} and slow down or break every JVM the agent is put on, MCP or not. At {@code -javaagent}
 * time even the agent's own start (configuration, summary) runs behind a {@link StartGate}, on a thread
 * of its own; an attach starts it here, since the MCP classes it weaves are already loaded.
 */
public final class AgentPremain {
    private static final String STARTED = "dev.mcppolicy.agent.started";

    private AgentPremain() {
    }

    public static void premain(String args, Instrumentation inst) {
        start(args, inst, false);
    }

    public static void agentmain(String args, Instrumentation inst) {
        start(args, inst, true);
    }

    private static void start(String args, Instrumentation inst, boolean lateAttach) {
        // the attach command's report path rides in front of the options (only an attach loads that class)
        String report = lateAttach ? dev.mcppolicy.agent.attach.AttachReport.reportPath(args) : null;
        String options = report == null ? args : dev.mcppolicy.agent.attach.AttachReport.options(args);
        try {
            if (System.getProperties().putIfAbsent(STARTED, "true") != null) {
                if (report != null) {
                    LateAttach.attachedAgain(options, report);
                } else {
                    System.err.println("[mcp-policy] WARN agent already started in this JVM; ignoring the second start");
                }
                return;
            }
            if (lateAttach) {
                Agent.start(options, inst, true, report);
            } else {
                // the app's main waits for none of the start: a gate thread does it, and holds back MCP classes until it is done
                StartGate.open(options, inst);
            }
        } catch (Throwable t) {
            System.err.println("[mcp-policy] ERROR agent failed to start; MCP tool calls are NOT policed: " + t);
            t.printStackTrace(System.err);
            if (report != null) {
                LateAttach.startFailed(t, report);
            }
        }
    }
}
