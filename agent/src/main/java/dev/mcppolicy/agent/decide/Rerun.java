package dev.mcppolicy.agent.decide;

import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a hooked method again for a call decided after its hook returned (it waited for the policy or an approval):
 * through the method's own handle, with a mark on the thread that its hook, entered again, lets through once. The
 * mark is the call's request object, so a call the rerun makes of another request is decided as any other.
 */
public final class Rerun {
    private static final ThreadLocal<Object> MARK = new ThreadLocal<>();
    /** How many reruns are under way in the JVM: a hook pays one read of it when none is. */
    private static final AtomicInteger RUNNING = new AtomicInteger();

    private Rerun() {
    }

    /** Whether this entry of a hook is the one {@link #run} makes for {@code request}: {@code true} once. */
    public static boolean isRerun(Object request) {
        if (RUNNING.get() > 0 && MARK.get() == request) {
            MARK.remove();
            return true;
        }
        return false;
    }

    /** Calls {@code call} with {@code arguments} (the receiver first), marked for {@code request}; what it returns. */
    public static Object run(Object request, MethodHandle call, Object... arguments) throws Throwable {
        RUNNING.incrementAndGet();
        MARK.set(request);
        try {
            return call.invokeWithArguments(arguments);
        } finally {
            MARK.remove();
            RUNNING.decrementAndGet();
        }
    }
}
