package dev.mcppolicy.agent.metrics;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.status.AgentStatus;
import java.lang.management.ManagementFactory;
import java.util.Map;
import javax.management.ObjectName;

/** The {@link DecisionsMXBean}, read from the counters and the agent's status when a JMX client asks. */
public final class Decisions implements DecisionsMXBean {
    public static final String OBJECT_NAME = "dev.mcppolicy:type=Decisions";

    private final DecisionCounters counters;
    private final AgentStatus status;

    Decisions(DecisionCounters counters, AgentStatus status) {
        this.counters = counters;
        this.status = status;
    }

    /**
     * Registers the bean on the platform MBean server: called off the app's threads once the first MCP
     * class has loaded (a JVM without MCP never starts JMX for the agent), by {@link JmxRegistration}. A failure is one WARN.
     */
    public static void register(DecisionCounters counters, AgentStatus status) {
        try {
            ObjectName name = new ObjectName(OBJECT_NAME);
            javax.management.MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            if (!server.isRegistered(name)) {
                server.registerMBean(new Decisions(counters, status), name);
                Diagnostics.debug("JMX: " + OBJECT_NAME + " registered");
            }
        } catch (Exception | LinkageError e) {
            Diagnostics.warn("JMX: could not register " + OBJECT_NAME + ": " + e);
        }
    }

    @Override
    public long getAllowed() {
        return counters.allowed();
    }

    @Override
    public long getDenied() {
        return counters.denied();
    }

    @Override
    public long getWouldDeny() {
        return counters.wouldDeny();
    }

    @Override
    public long getHeld() {
        return counters.held();
    }

    @Override
    public Map<String, Long> getByTool() {
        return counters.byTool();
    }

    @Override
    public Map<String, Long> getByRule() {
        return counters.byRule();
    }

    @Override
    public long getReloadsApplied() {
        return status.reloadsApplied();
    }

    @Override
    public long getReloadsRejected() {
        return status.reloadsRejected();
    }

    @Override
    public long getAgentErrors() {
        return Diagnostics.adviceErrors();
    }

    @Override
    public String getStoreState() {
        return status.storeState();
    }

    @Override
    public long getStoreOutages() {
        return status.storeOutages();
    }

    @Override
    public String getPolicySha256() {
        String sha256 = status.policy().sha256();
        return sha256 == null ? "" : sha256;
    }

    @Override
    public String getPolicyState() {
        return status.policy().state().name();
    }
}
