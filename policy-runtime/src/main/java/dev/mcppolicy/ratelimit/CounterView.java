package dev.mcppolicy.ratelimit;

import dev.mcppolicy.policy.Algorithm;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Scope;
import java.time.Duration;

/**
 * What one counter holds for one key at one moment, read without taking anything: for the admin page.
 *
 * @param key the key as the engine gave it ({@link RateLimitStore#GLOBAL_KEY}, a session or client id, the
 *     empty string for calls without one), or {@code null} when no key of a keyed counter has counted yet
 * @param used the units taken that still count ({@code max} minus the tokens left, for a token bucket)
 * @param retryAfterMillis how long until the next call has room, or 0 when it has room now
 */
public record CounterView(String counter, Scope scope, String key, long used, long max, Duration window, Algorithm algorithm,
        long retryAfterMillis) {

    /** A counter that has counted nothing (for {@code key}). */
    static CounterView empty(Limit limit, String key) {
        return new CounterView(limit.counter(), limit.scope(), key, 0, limit.max(), limit.window(), limit.algorithm(), 0);
    }
}
