package dev.mcppolicy.ratelimit.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.policy.Algorithm;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Scope;
import dev.mcppolicy.ratelimit.Admission;
import dev.mcppolicy.ratelimit.RateLimitStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What only the Redis store does: Redis's clock, its keys, a flushed script, and Redis gone, back or frozen. */
class RedisRateLimitStoreFailureTest {
    private final List<String> changes = new CopyOnWriteArrayList<>();
    private RedisServer redis;
    private RedisRateLimitStore store;

    @BeforeEach
    void start() {
        redis = RedisServer.start();
        store = RedisRateLimitStore.open(RedisStoreSettings.of(RedisUrl.parse(redis.store())).withTimeout(Duration.ofMillis(200))
                .withListener((available, detail) -> changes.add((available ? "up: " : "down: ") + detail)));
        assertThat(store.unavailableReason()).isNull();
        assertThat(changes).as("the first answer is a change too").hasSize(1).allMatch(change -> change.startsWith("up: "));
        changes.clear();
    }

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private static Limit limit(String counter, Duration window, long max, Scope scope, Algorithm algorithm) {
        return new Limit(counter, window, max, scope, algorithm);
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting until " + what).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    void takesItsTimeFromRedisNotFromTheEngine() {
        Limit limit = limit("clock", Duration.ofSeconds(10), 1, Scope.GLOBAL, Algorithm.SLIDING);
        assertThat(store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0).admitted()).isTrue();
        Admission refused = store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, Duration.ofDays(1).toMillis());
        assertThat(refused.admitted()).as("a day later by the engine's clock, but not by Redis's").isFalse();
        assertThat(refused.retryAfterMillis()).isBetween(1L, 10_000L);
    }

    @Test
    void storesHashedKeysInOneClusterSlotThatExpireWhenIdle() {
        Limit perClient = limit("per-client", Duration.ofMinutes(1), 5, Scope.CLIENT, Algorithm.TOKEN_BUCKET);
        assertThat(store.tryAcquire(perClient, "principal:alice", 0).admitted()).isTrue();
        String key = store.redisKey(perClient, "principal:alice");
        assertThat(key).startsWith("mcp-policy:{rl}:t:10:per-client:k").doesNotContain("alice");
        assertThat(redis.command("EXISTS", key)).isEqualTo(":1");
        long ttl = Long.parseLong(redis.command("PTTL", key).substring(1));
        assertThat(ttl).as("idle for a window, the bucket is full again").isBetween(1L, 60_000L);
        assertThat(store.redisKey(limit("g", Duration.ofMinutes(1), 1, Scope.GLOBAL, Algorithm.SLIDING), RateLimitStore.GLOBAL_KEY))
                .isEqualTo("mcp-policy:{rl}:s:1:g:global");
    }

    @Test
    void sendsTheScriptAgainWhenRedisHasForgottenIt() {
        Limit limit = limit("flush", Duration.ofMinutes(1), 2, Scope.GLOBAL, Algorithm.FIXED);
        assertThat(store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0).admitted()).isTrue();
        assertThat(redis.command("SCRIPT", "FLUSH")).isEqualTo("+OK");
        assertThat(store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0).admitted()).as("NOSCRIPT, then EVAL").isTrue();
        assertThat(store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0).admitted()).isFalse();
        assertThat(redis.command("SCRIPT", "EXISTS", RedisRateLimitStore.SCRIPT_SHA)).isEqualTo("*1");
    }

    @Test
    void failsFastOnceRedisIsGoneAndRecoversByItselfWhenItIsBack() {
        Limit limit = limit("outage", Duration.ofMinutes(1), 100, Scope.GLOBAL, Algorithm.SLIDING);
        assertThat(store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0).admitted()).isTrue();
        redis.stop();
        for (int i = 0; i < RedisStoreSettings.DEFAULT_FAILURES_TO_OPEN; i++) {
            assertThat(store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0).isUnavailable()).isTrue();
        }
        assertThat(store.unavailableReason()).contains("failing fast");
        for (int i = 0; i < 1_000; i++) {
            assertThat(store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0).unavailableReason()).contains("failing fast");
        }
        assertThat(changes).as("one change, however many calls").hasSize(1);
        assertThat(changes.get(0)).startsWith("down: ");

        redis.startAgain();
        await("the store answers again", () -> store.unavailableReason() == null);
        assertThat(store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0).admitted()).isTrue();
        assertThat(changes).hasSize(2);
        assertThat(changes.get(1)).startsWith("up: ");
    }

    @Test
    void aFrozenRedisTimesOutThenFailsFastAndIsUsedAgainWhenItWakes() {
        Limit limit = limit("frozen", Duration.ofMinutes(1), 100, Scope.GLOBAL, Algorithm.FIXED);
        assertThat(store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0).admitted()).isTrue();
        redis.pause();
        try {
            Admission timedOut = store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0);
            assertThat(timedOut.unavailableReason()).isEqualTo("redis did not answer within 200ms");
            store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0);
            store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0);
            assertThat(store.unavailableReason()).contains("failing fast");
        } finally {
            redis.resume();
        }
        await("the store answers again", () -> store.unavailableReason() == null);
        assertThat(store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0).admitted()).isTrue();
        assertThat(changes).hasSize(2);
    }

    @Test
    void aStoreStartedWhileRedisIsDownConnectsWhenItComesUp() {
        store.close();
        redis.stop();
        changes.clear();
        store = RedisRateLimitStore.open(RedisStoreSettings.of(RedisUrl.parse(redis.store()))
                .withListener((available, detail) -> changes.add((available ? "up: " : "down: ") + detail)));
        assertThat(store.unavailableReason()).startsWith("cannot reach redis://127.0.0.1:" + redis.port());
        Limit limit = limit("late", Duration.ofMinutes(1), 1, Scope.GLOBAL, Algorithm.SLIDING);
        assertThat(store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0).isUnavailable()).isTrue();
        redis.startAgain();
        await("the store connects", () -> store.unavailableReason() == null);
        assertThat(store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, 0).admitted()).isTrue();
        assertThat(changes).hasSize(2);
    }
}
