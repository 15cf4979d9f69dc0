package dev.mcppolicy.ratelimit;

import dev.mcppolicy.policy.Limit;

/**
 * Where rate-limit state lives. The in-memory store is the default; a shared store (Redis, SPEC §10)
 * implements the same contract so that a fleet of JVMs shares one budget.
 *
 * <p>The state a call counts against is identified by {@link Limit#counter()} and the key the engine
 * computed for that limit from the call: {@link #GLOBAL_KEY} for a {@code global} limit, the session or
 * client id (or one shared key for a call without one) otherwise. A store takes the keys as given and
 * never derives them from a call or a scope, so every store counts the same calls together. State is
 * never identified by the policy that declared it, so a store outlives policy reloads and keeps its
 * counts. Time is the engine's: every call brings its {@code nowMillis}, and a store keeps no clock.
 *
 * <p>A store that cannot answer returns {@link Admission#unavailable}; the engine treats a store that
 * throws the same way, and decides the call by its {@code store_fail} option.
 */
public interface RateLimitStore {
    /** The key the engine passes for a {@code global} limit: one state per counter. */
    String GLOBAL_KEY = "global";

    /**
     * Takes one unit from every limit, or from none when any of them has no room (then the answer says
     * which, and when to retry). Atomic with respect to other calls on the same counters: a shared store
     * checks and takes all of them in one round trip. The arrays are the engine's: read them during the
     * call, never modify or keep them.
     *
     * @param limits distinct counters, ordered by counter name (stores may lock in this order)
     * @param keys the key of each limit: {@code keys[i]} is the key of {@code limits[i]}
     * @param nowMillis the current time, from the engine's clock
     */
    Admission tryAcquire(Limit[] limits, String[] keys, long nowMillis);

    /** {@link #tryAcquire(Limit[], String[], long)} for a call that counts against one limit only. */
    default Admission tryAcquire(Limit limit, String key, long nowMillis) {
        return tryAcquire(new Limit[] {limit}, new String[] {key}, nowMillis);
    }

    /**
     * Gets ready for a counter that is counted under many keys (a {@code session} or {@code client}
     * limit), so that its first call does not pay for setting it up. Called by
     * {@code PolicyEngine.warmUp}, off the call path, never while an engine is built or deciding; counts
     * nothing, and {@link #tryAcquire} works whether or not it was called. {@code nowMillis}: the engine's clock,
     * as a call would bring it.
     */
    default void prepare(Limit limit, long nowMillis) {
    }

    /**
     * What the counters of {@code limits} hold now, read without taking or changing anything: one view
     * per counter for a {@code global} limit, one per key (at most {@code maxKeysPerCounter}, the most
     * used first) for the others. Each is judged by the limit given, so a {@code max} or {@code window}
     * changed by a reload shows as it applies. A store that cannot tell returns an empty list.
     */
    default java.util.List<CounterView> counters(java.util.Collection<Limit> limits, int maxKeysPerCounter, long nowMillis) {
        return java.util.List.of();
    }

    /** The in-memory store: exact, allocation-free when admitting one limit, bounded to {@code maxKeysPerCounter} keys per counter. */
    static RateLimitStore inMemory(long maxKeysPerCounter) {
        return new InMemoryRateLimitStore(maxKeysPerCounter);
    }

    /** {@link #inMemory(long)} with room for 100,000 keys per counter. */
    static RateLimitStore inMemory() {
        return inMemory(100_000);
    }
}
