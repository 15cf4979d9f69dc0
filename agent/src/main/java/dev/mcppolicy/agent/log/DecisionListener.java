package dev.mcppolicy.agent.log;

import dev.mcppolicy.log.DecisionRecord;

/**
 * Told of every decided call, on the deciding thread, by {@link DecisionLog}: the log line and the
 * audit file are listeners; metrics, the admin page's recent decisions and approvals will be. A
 * listener must be quick (queue anything slow) and should not throw: a throw is caught, counted for
 * the listener and reported once per kind, and neither the call nor the other listeners see it.
 */
public interface DecisionListener {
    /**
     * @param record the call, its decision and how long deciding took
     * @param sdkLoader the class loader of the MCP SDK that made the call, where the app's own
     *     libraries (its logging, its metrics) are found
     */
    void decided(DecisionRecord record, ClassLoader sdkLoader);

    /**
     * Whether it reads the record's time ({@link DecisionRecord#at}); the log line does not (the app's logger stamps
     * it), and a log without any listener that does reads no clock per decision (issue 16: ~40 ns of a logged call).
     */
    default boolean readsTime() {
        return true;
    }

    /** A fixed name for counting and reporting its errors. */
    default String name() {
        return getClass().getName();
    }
}
