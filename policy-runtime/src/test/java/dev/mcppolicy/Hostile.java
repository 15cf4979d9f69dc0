package dev.mcppolicy;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Hostile argument values (issue 8, item 4) for tests, and a way to run code on a small thread stack
 * with a hang guard: a walk that recursed once per level of a 10,000-level value would overflow it.
 */
public final class Hostile {
    public static final int DEPTH = 10_000;
    public static final int LONG_STRING = 10 * 1024 * 1024;
    public static final int WIDE = 100_000;
    /** 1e400 as Jackson gives it by default: beyond a double, so an infinity. */
    public static final double INFINITY = Double.POSITIVE_INFINITY;
    /** 1e400 as Jackson gives it with {@code USE_BIG_DECIMAL_FOR_FLOATS}. */
    public static final BigDecimal BIG = new BigDecimal("1e400");
    /** Expanding this to its digits ({@code toBigInteger()}) would take 400 million digits. */
    public static final BigDecimal HUGE_EXPONENT = new BigDecimal("1e400000000");
    public static final BigDecimal NEGATIVE_HUGE_EXPONENT = new BigDecimal("-1e400000000");
    public static final BigDecimal TINY = new BigDecimal("1e-400000000");
    public static final String LONE_HIGH = "a\uD800";
    public static final String LONE_LOW = "\uDC00a";
    public static final String NON_BMP = "\uD83D\uDE00\uD834\uDD1E";
    public static final String BOTTOM = "bottom";

    private static final long STACK_BYTES = 256 * 1024;
    private static final long GUARD_SECONDS = 30;

    private Hostile() {
    }

    /**
     * {@code levels} nested containers, alternately a map {@code {"m": ...}} and a list {@code [...]}, the
     * outermost a map, with {@link #BOTTOM} inside the last. Built without recursion.
     */
    public static Map<String, Object> deep(int levels) {
        return deep(levels, BOTTOM);
    }

    /** {@link #deep(int)} with {@code bottom} inside the last container. */
    public static Map<String, Object> deep(int levels, Object bottom) {
        Object inner = bottom;
        for (int level = levels - 1; level >= 1; level--) {
            inner = level % 2 == 0 ? Map.of("m", inner) : List.of(inner);
        }
        return Map.of("m", inner);
    }

    /** The canonical JSON of {@link #deep}. */
    public static String deepJson(int levels) {
        StringBuilder text = new StringBuilder(levels * 6);
        for (int level = 0; level < levels; level++) {
            text.append(level % 2 == 0 ? "{\"m\":" : "[");
        }
        text.append('"').append(BOTTOM).append('"');
        for (int level = levels - 1; level >= 0; level--) {
            text.append(level % 2 == 0 ? '}' : ']');
        }
        return text.toString();
    }

    public static String longString() {
        return "a".repeat(LONG_STRING);
    }

    /** {@code k000000 -> 0}, ... {@code k099999 -> 99999}, inserted in reverse order. */
    public static Map<String, Object> wide() {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = WIDE - 1; i >= 0; i--) {
            map.put(String.format("k%06d", i), i);
        }
        return map;
    }

    /** The hostile values by name, each small enough to build many times over. */
    public static Map<String, Object> values() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("deep", deep(DEPTH));
        values.put("long string", longString());
        values.put("wide map", wide());
        values.put("1e400 as infinity", INFINITY);
        values.put("-1e400 as infinity", Double.NEGATIVE_INFINITY);
        values.put("1e400 as BigDecimal", BIG);
        values.put("1e400000000", HUGE_EXPONENT);
        values.put("-1e400000000", NEGATIVE_HUGE_EXPONENT);
        values.put("1e-400000000", TINY);
        values.put("NaN", Double.NaN);
        values.put("-0.0", -0.0);
        values.put("lone high surrogate", LONE_HIGH);
        values.put("lone low surrogate", LONE_LOW);
        values.put("non-BMP", NON_BMP);
        return values;
    }

    /**
     * Runs {@code work} on a thread with a 256 KB stack and returns its result; fails if it throws (a
     * {@link StackOverflowError} included) or takes longer than 30 s (a hang, not a timing).
     */
    public static <T> T onSmallStack(Callable<T> work) {
        FutureTask<T> task = new FutureTask<>(work);
        Thread thread = new Thread(null, task, "hostile-small-stack", STACK_BYTES);
        thread.setDaemon(true);
        thread.start();
        try {
            return task.get(GUARD_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("threw " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            thread.interrupt();
            throw new AssertionError("did not finish in " + GUARD_SECONDS + " s: a hang", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** {@link #onSmallStack(Callable)} for work without a result. */
    public static void runOnSmallStack(Runnable work) {
        onSmallStack(() -> {
            work.run();
            return null;
        });
    }
}
