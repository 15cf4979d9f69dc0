package dev.mcppolicy.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.policy.Algorithm;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link AbstractRateLimitStoreScenarios} on the in-memory store, and how its key caches expire. */
class InMemoryRateLimitStoreTest extends AbstractRateLimitStoreScenarios {
    @Override
    protected RateLimitStore newStore() {
        return RateLimitStore.inMemory();
    }

    /**
     * The store has no clock: its key caches expire by the {@code nowMillis} the calls bring. A state is
     * seen to have expired when a limit with a longer window, sharing its counter, finds it fresh.
     */
    @Test
    void keyCachesExpireByTheTimeTheCallsBring() {
        Limit thirtySeconds = limit("x", Duration.ofSeconds(30), 2, Scope.CLIENT, Algorithm.SLIDING);
        Limit aMinute = limit("x", Duration.ofMinutes(1), 2, Scope.CLIENT, Algorithm.SLIDING);
        long start = Instant.parse("2026-06-01T12:00:00Z").toEpochMilli();
        for (String key : List.of("alice", "bob")) {
            assertThat(store.tryAcquire(thirtySeconds, key, start).admitted()).isTrue();
            assertThat(store.tryAcquire(thirtySeconds, key, start).admitted()).isTrue();
        }

        assertThat(store.tryAcquire(aMinute, "bob", start + 29_000).admitted())
                .as("29 s after its last call, bob's state is still there: both calls are inside the minute").isFalse();
        assertThat(store.tryAcquire(aMinute, "alice", start + 31_000).admitted())
                .as("31 s after, alice's state has expired, by the time the call brought").isTrue();
    }
}
