package dev.mcppolicy.agent;

import dev.mcppolicy.text.DisplayText;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The agent's own voice: stderr with a fixed {@code [mcp-policy]} prefix, never stdout (a stdio MCP
 * server speaks JSON-RPC there) and never the app's log (that is for decisions). Also counts advice
 * errors, which tests assert stay at zero.
 *
 * <p>An advice error is reported when it first happens and then counted, not printed per call: a
 * fault that hits every call (a broken disk, a logger that throws) must not flood stderr. Each kind
 * (where it happened and the exception's class) is printed the 1st, 10th, 100th, ... time, with its
 * count.
 */
public final class Diagnostics {
    private static final String PREFIX = "[mcp-policy] ";
    /** Kinds tracked one by one; beyond it (a bug in a loop of distinct places), errors are only counted. */
    static final int MAX_KINDS = 256;
    private static final AtomicLong ADVICE_ERRORS = new AtomicLong();
    private static final Map<String, AtomicLong> BY_KIND = new ConcurrentHashMap<>();
    private static final Map<String, AtomicLong> BY_LISTENER = new ConcurrentHashMap<>();
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

    /** An exception inside the agent's hook code at {@code where} (a fixed description: no per-call text). */
    public static void adviceError(String where, Throwable error) {
        adviceError(where, null, error);
    }

    /**
     * An exception inside the agent's hook code: counted always, and a WARN naming where it happened the
     * first time for its kind (then the 10th, 100th, ... time). {@code detail} (the tool, say) is shown
     * but is not part of the kind, so hostile tool names cannot make every error a new kind.
     */
    public static void adviceError(String where, String detail, Throwable error) {
        long total = ADVICE_ERRORS.incrementAndGet();
        String kind = where + " / " + error.getClass().getName();
        AtomicLong counter = BY_KIND.get(kind);
        if (counter == null && BY_KIND.size() < MAX_KINDS) {
            counter = BY_KIND.computeIfAbsent(kind, key -> new AtomicLong());
        }
        long count = counter == null ? total : counter.incrementAndGet();
        if (!isPowerOfTen(count)) {
            return;
        }
        String at = detail == null ? where : where + " (" + printable(detail) + ")";
        System.err.println(PREFIX + "WARN advice error in " + at + ": " + error
                + (counter == null ? " [too many kinds of advice error: " + total + " in all]"
                        : count == 1 ? "; further errors of this kind are counted, not printed each time"
                        : " [" + count + " of this kind so far, " + total + " in all]"));
        if (debug) {
            error.printStackTrace(System.err);
        }
    }

    /**
     * A decision listener ({@code listener} is its fixed name) threw: counted for that listener, and
     * reported and counted as an advice error of its own kind.
     */
    public static void listenerError(String listener, String detail, Throwable error) {
        AtomicLong counter = BY_LISTENER.get(listener);
        if (counter == null) {
            counter = BY_LISTENER.computeIfAbsent(listener, key -> new AtomicLong());
        }
        counter.incrementAndGet();
        adviceError("decision listener " + listener, detail, error);
    }

    /** {@code text} safe for one stderr line: unsafe characters escaped, at most 200 chars (see {@link DisplayText}). */
    static String printable(String text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), 200) + 16);
        DisplayText.appendQuoted(text, '"', 200, out);
        return out.toString();
    }

    private static boolean isPowerOfTen(long n) {
        while (n >= 10 && n % 10 == 0) {
            n /= 10;
        }
        return n == 1;
    }

    public static long adviceErrors() {
        return ADVICE_ERRORS.get();
    }

    /** How often each kind of advice error happened ({@code where / exception class}). */
    public static Map<String, Long> adviceErrorsByKind() {
        Map<String, Long> counts = new java.util.TreeMap<>();
        BY_KIND.forEach((kind, count) -> counts.put(kind, count.get()));
        return counts;
    }

    /** How often each decision listener threw, by its name. */
    public static Map<String, Long> listenerErrors() {
        Map<String, Long> counts = new java.util.TreeMap<>();
        BY_LISTENER.forEach((listener, count) -> counts.put(listener, count.get()));
        return counts;
    }
}
