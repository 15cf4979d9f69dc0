package dev.mcppolicy.agent;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The agent's own voice: stderr with a fixed {@code [mcp-policy]} prefix, never stdout (a stdio MCP
 * server speaks JSON-RPC there) and never the app's log (that is for decisions). Also counts advice
 * errors, which tests assert stay at zero.
 */
public final class Diagnostics {
    private static final String PREFIX = "[mcp-policy] ";
    private static final AtomicLong ADVICE_ERRORS = new AtomicLong();
    private static volatile boolean debug;

    private Diagnostics() {
    }

    static void setDebug(boolean enabled) {
        debug = enabled;
    }

    public static void info(String message) {
        System.err.println(PREFIX + message);
    }

    public static void warn(String message) {
        System.err.println(PREFIX + "WARN " + message);
    }

    public static void error(String message) {
        System.err.println(PREFIX + "ERROR " + message);
    }

    public static void debug(String message) {
        if (debug) {
            System.err.println(PREFIX + "DEBUG " + message);
        }
    }

    /** An exception inside the agent's hook code: always a WARN naming where it happened. */
    public static void adviceError(String where, Throwable error) {
        long count = ADVICE_ERRORS.incrementAndGet();
        System.err.println(PREFIX + "WARN advice error #" + count + " in " + where + ": " + error);
        if (debug) {
            error.printStackTrace(System.err);
        }
    }

    public static long adviceErrors() {
        return ADVICE_ERRORS.get();
    }
}
