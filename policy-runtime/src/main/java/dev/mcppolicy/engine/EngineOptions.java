package dev.mcppolicy.engine;

import dev.mcppolicy.ratelimit.RateLimitStore;
import java.util.Objects;

/**
 * How an engine is wired beyond its policy and clock.
 *
 * @param store where rate-limit state lives; pass the previous engine's store on reload to keep counts
 * @param maxValueLength string arguments longer than this fail every {@code require} and match every
 *     {@code deny_if} they are tested by (default 64 KiB)
 */
public record EngineOptions(RateLimitStore store, int maxValueLength) {
    public static final int DEFAULT_MAX_VALUE_LENGTH = 64 * 1024;

    public EngineOptions {
        Objects.requireNonNull(store, "store");
        if (maxValueLength < 1) {
            throw new IllegalArgumentException("maxValueLength must be positive: " + maxValueLength);
        }
    }

    public static EngineOptions withStore(RateLimitStore store) {
        return new EngineOptions(store, DEFAULT_MAX_VALUE_LENGTH);
    }
}
