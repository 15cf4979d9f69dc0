package dev.mcppolicy.agent.canary;

import java.util.function.BiFunction;

/**
 * A stand-in for the SDK's {@code tools/call} dispatch: a factory returning a handler lambda that
 * takes (exchange, params), woven exactly as the SDK's is. The canary defines a fresh copy of this class,
 * so the JVM runs it through the agent's transformer like any SDK class.
 */
public final class CanaryTarget {
    /** What the handler answers when the hook did not fire. */
    public static final String UNHOOKED = "the handler ran: the hook did not fire";

    public BiFunction<Object, Object, Object> toolsCallRequestHandler() {
        return (exchange, params) -> UNHOOKED;
    }
}
