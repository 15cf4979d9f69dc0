package dev.mcppolicy.agent.metrics;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.TestHooks;
import dev.mcppolicy.agent.status.AgentStatus;
import javax.management.MBeanServerFactory;

/**
 * Registers the {@link Decisions} bean without making the app's start-up pay for the platform MBean server.
 * Creating that server cold costs about 250 ms of CPU (some 290 JMX, management and logging classes), on a
 * 2-core box at the very moment the app is starting. So: at once if an MBean server already exists (a
 * {@code -Dcom.sun.management.jmxremote} JVM, a JMX exporter agent, Spring's JMX, Tomcat); otherwise as
 * soon as one appears (a JMX client attaching creates it: {@code jconsole}, {@code jcmd ManagementAgent.start}),
 * checked every {@value #POLL_MILLIS} ms; and at the latest {@value #LATEST_MILLIS} ms after the policy was
 * read, when the agent creates it. The check is one look at {@link MBeanServerFactory}'s list. The thread
 * ends once the bean is registered.
 */
public final class JmxRegistration extends Thread {
    static final long POLL_MILLIS = 200;
    static final long LATEST_MILLIS = 10_000;

    private final DecisionCounters counters;
    private final AgentStatus status;

    private JmxRegistration(DecisionCounters counters, AgentStatus status) {
        super("mcp-policy-jmx");
        setDaemon(true);
        this.counters = counters;
        this.status = status;
    }

    /** Registers now when an MBean server exists, else starts the thread that waits for one. */
    public static void registerWhenServed(DecisionCounters counters, AgentStatus status) {
        if (serverExists()) {
            Decisions.register(counters, status);
        } else {
            new JmxRegistration(counters, status).start();
        }
    }

    @Override
    public void run() {
        long latest = System.nanoTime() + (TestHooks.JMX_LATEST_MS > 0 ? TestHooks.JMX_LATEST_MS : LATEST_MILLIS) * 1_000_000;
        try {
            while (!serverExists() && System.nanoTime() - latest < 0) {
                Thread.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Decisions.register(counters, status);
    }

    private static boolean serverExists() {
        try {
            return !MBeanServerFactory.findMBeanServer(null).isEmpty();
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.debug("JMX: cannot look for an MBean server (" + e + "); registering at once");
            return true;
        }
    }
}
