package dev.mcppolicy.agent.metrics;

import java.util.Map;

/**
 * {@code dev.mcppolicy:type=Decisions} (SPEC §8): what the agent decided since the JVM started, and the
 * policy it decides by. Readable with {@code jconsole}, VisualVM or any JMX client.
 */
public interface DecisionsMXBean {
    /** Calls let through (in monitor mode, whatever the policy would have done). */
    long getAllowed();

    long getDenied();

    /** Calls let through in monitor mode that the policy would have denied (or held for approval). */
    long getWouldDeny();

    /** Calls held for approval; each is counted again, as allowed or denied, when a person (or the timeout) decides. */
    long getHeld();

    /** Calls by side and tool, e.g. {@code "server run_command"}; at most 500 names, the rest as {@code (other)}. */
    Map<String, Long> getByTool();

    /** Calls by the rule that decided them. */
    Map<String, Long> getByRule();

    long getReloadsApplied();

    long getReloadsRejected();

    /** Errors inside the agent's hooks (each one answered by {@code on_error}). */
    long getAgentErrors();

    /** The rate-limit store: {@code memory}, {@code redis: available} or {@code redis: unavailable}. */
    String getStoreState();

    /** How often the Redis store became unavailable (calls with limits then decided by {@code store_fail}). */
    long getStoreOutages();

    /** The SHA-256 of the policy in force, or empty when none is (every call answered by {@code on_error}). */
    String getPolicySha256();

    /** {@code LOADED}, {@code UNAVAILABLE} or {@code NOT_READ}. */
    String getPolicyState();
}
