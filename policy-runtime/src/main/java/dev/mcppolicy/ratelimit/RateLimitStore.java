package dev.mcppolicy.ratelimit;

import dev.mcppolicy.policy.Limit;

/**
 * Where rate-limit state lives. The in-memory store is the default; a shared store (Redis, SPEC §10)
 * implements the same contract so that a fleet of JVMs shares one budget.
 *
 * <p>Counters are identified by {@link Limit#counter()} and the scope key, never by the policy that
 * declared them, so a store outlives policy reloads and keeps its counts.
 */
public interface RateLimitStore {
    /**
     * Takes one unit from every limit, or from none when any of them has no room (then the answer says
     * which, and when to retry). Atomic with respect to other calls on the same counters.
     *
     * @param limits distinct counters, ordered by counter name (stores may lock in this order)
     * @param sessionId the key for {@code session}-scoped limits
     * @param clientId the key for {@code client}-scoped limits
     * @param nowMillis the current time, from the engine's clock
     */
    Admission tryAcquire(Limit[] limits, String sessionId, String clientId, long nowMillis);

    /**
     * Gets ready for {@code limit} ahead of its first call, so that the first call does not pay for
     * setting up its counter. Called once per limit when an engine is built (possibly on another thread
     * than the calls). Does not count anything.
     */
    default void prepare(Limit limit) {
    }

    /** The in-memory store: exact, allocation-free when admitting, bounded to {@code maxKeysPerCounter} keys per counter. */
    static RateLimitStore inMemory(java.time.Clock clock, long maxKeysPerCounter) {
        return new InMemoryRateLimitStore(clock, maxKeysPerCounter);
    }

    /** {@link #inMemory(java.time.Clock, long)} with room for 100,000 keys per counter. */
    static RateLimitStore inMemory(java.time.Clock clock) {
        return inMemory(clock, 100_000);
    }
}
