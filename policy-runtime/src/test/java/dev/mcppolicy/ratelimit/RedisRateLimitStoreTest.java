package dev.mcppolicy.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.policy.Algorithm;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Scope;
import dev.mcppolicy.ratelimit.redis.RedisRateLimitStore;
import dev.mcppolicy.ratelimit.redis.RedisServer;
import dev.mcppolicy.ratelimit.redis.RedisStoreSettings;
import dev.mcppolicy.ratelimit.redis.RedisUrl;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link AbstractRateLimitStoreScenarios} on a real {@code redis-server}: the same cases, one Lua script.
 * The store runs on the scenarios' fake clock here ({@link RedisStoreSettings#engineTime()}); each test
 * counts under a key prefix of its own.
 */
class RedisRateLimitStoreTest extends AbstractRateLimitStoreScenarios {
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private static RedisServer redis;

    @BeforeAll
    static void startRedis() {
        redis = RedisServer.start();
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @Override
    protected RateLimitStore newStore() {
        if (redis == null) {
            return RateLimitStore.inMemory();
        }
        RedisStoreSettings settings = RedisStoreSettings.of(RedisUrl.parse(redis.store()))
                .withTimeout(Duration.ofSeconds(5))
                .withKeyPrefix("t" + PREFIXES.incrementAndGet() + ":")
                .withEngineTime(true);
        RedisRateLimitStore opened = RedisRateLimitStore.open(settings);
        assertThat(opened.unavailableReason()).as("redis answers").isNull();
        return opened;
    }

    @AfterEach
    void closeStore() {
        if (store instanceof RedisRateLimitStore redisStore) {
            redisStore.close();
        }
    }

    static Limit limit(String counter, long max, Scope scope, Algorithm algorithm) {
        return new Limit(counter, Duration.ofMinutes(1), max, scope, algorithm);
    }
}
