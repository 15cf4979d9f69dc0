package dev.mcppolicy.agent;

import java.lang.instrument.Instrumentation;
import java.util.function.BiConsumer;

/**
 * What {@link AgentPremain} hands over to, on the agent's own class loader ({@link AgentLoader}): it guards against
 * a second start, catches every {@code Throwable}, prints only to {@code System.err} and starts the agent (behind
 * a {@link StartGate} at {@code -javaagent} time, at once on attach). Public, with a public constructor, because
 * the doorman reaches it by reflection from the system class loader.
 */
public final class AgentStart implements BiConsumer<String, Instrumentation> {
    private static final String STARTED = "dev.mcppolicy.agent.started";

    private final boolean lateAttach;

    /** @param lateAttach whether this is {@code agentmain} (attach) rather than {@code premain} */
    public AgentStart(boolean lateAttach) {
        this.lateAttach = lateAttach;
    }

    @Override
    public void accept(String args, Instrumentation inst) {
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
