package dev.mcppolicy.ratelimit.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link RedisRateLimitStore} reaches Redis and behaves when it cannot.
 *
 * @param url the server (its password, if any, included)
 * @param timeout how long a call waits for Redis's answer ({@code store_timeout}); also the longest a
 *     decision waits on the store
 * @param keyPrefix what every key starts with ({@code store_key_prefix}); fleets that share a Redis but
 *     not their budgets use different prefixes
 * @param failuresToOpen after this many failed calls in a row the store stops asking Redis and answers
 *     unavailable at once, probing in the background until Redis answers again
 * @param engineTime use the engine's {@code nowMillis} instead of Redis's {@code TIME}: only for tests
 *     that drive a fake clock; a fleet must take its time from Redis
 * @param listener told of every change between available and unavailable, once per change
 */
public record RedisStoreSettings(RedisUrl url, Duration timeout, String keyPrefix, int failuresToOpen, boolean engineTime,
        StoreStateListener listener) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(50);
    public static final String DEFAULT_KEY_PREFIX = "mcp-policy:";
    public static final int DEFAULT_FAILURES_TO_OPEN = 3;

    public RedisStoreSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        Objects.requireNonNull(listener, "listener");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        if (failuresToOpen < 1) {
            throw new IllegalArgumentException("failuresToOpen must be positive: " + failuresToOpen);
        }
    }

    /** {@code url} with the defaults: 50 ms, {@code mcp-policy:}, open after 3 failures, Redis's time, no listener. */
    public static RedisStoreSettings of(RedisUrl url) {
        return new RedisStoreSettings(url, DEFAULT_TIMEOUT, DEFAULT_KEY_PREFIX, DEFAULT_FAILURES_TO_OPEN, false, StoreStateListener.NONE);
    }

    public RedisStoreSettings withTimeout(Duration newTimeout) {
        return new RedisStoreSettings(url, newTimeout, keyPrefix, failuresToOpen, engineTime, listener);
    }

    public RedisStoreSettings withKeyPrefix(String prefix) {
        return new RedisStoreSettings(url, timeout, prefix, failuresToOpen, engineTime, listener);
    }

    public RedisStoreSettings withEngineTime(boolean useEngineTime) {
        return new RedisStoreSettings(url, timeout, keyPrefix, failuresToOpen, useEngineTime, listener);
    }

    public RedisStoreSettings withListener(StoreStateListener newListener) {
        return new RedisStoreSettings(url, timeout, keyPrefix, failuresToOpen, engineTime, newListener);
    }

    @Override
    public String toString() {
        return "RedisStoreSettings[" + url.masked() + ", timeout=" + timeout + ", keyPrefix=" + keyPrefix + "]";
    }
}
