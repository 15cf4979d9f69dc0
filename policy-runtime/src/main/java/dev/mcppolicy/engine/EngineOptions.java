package dev.mcppolicy.engine;

import dev.mcppolicy.ratelimit.RateLimitStore;
import java.util.Objects;

/**
 * How an engine is wired beyond its policy and clock.
 *
 * @param store where rate-limit state lives; pass the previous engine's store on reload to keep counts
 * @param maxValueLength string arguments longer than this fail every {@code require} and match every
 *     {@code deny_if} they are tested by (default 64 KiB)
 * @param storeFail what a call gets when it has limits to count against and the store cannot answer
 *     (SPEC §10 {@code store_fail}; default {@link StoreFail#DENY})
 */
public record EngineOptions(RateLimitStore store, int maxValueLength, StoreFail storeFail) {
    public static final int DEFAULT_MAX_VALUE_LENGTH = 64 * 1024;

    /**
     * The answer to a call whose rate-limit store is unavailable: it returned
     * {@link dev.mcppolicy.ratelimit.Admission#unavailable} or threw. Either way nothing was counted.
     */
    public enum StoreFail {
        /**
         * Fail closed: the call is denied by the first limit it counts against ({@code all_tools} limits
         * first, then the rule's), with the reason {@code rate limit store unavailable: <why>}. In monitor
         * mode it is allowed with {@code would=DENY}, like any other denial.
         */
        DENY,
        /**
         * Fail open: the call goes on as if every limit had room (to approval, if the rule asks for it)
         * without being counted, and its decision says so: {@code would=DENY}, the rule of that limit, and
         * the reason {@code rate limit store unavailable: <why>; let through uncounted (store_fail=allow)}.
         */
        ALLOW
    }

    public EngineOptions {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(storeFail, "storeFail");
        if (maxValueLength < 1) {
            throw new IllegalArgumentException("maxValueLength must be positive: " + maxValueLength);
        }
    }

    /** {@code store} with the defaults: 64 KiB values, {@link StoreFail#DENY}. */
    public static EngineOptions withStore(RateLimitStore store) {
        return new EngineOptions(store, DEFAULT_MAX_VALUE_LENGTH, StoreFail.DENY);
    }

    public EngineOptions withStoreFail(StoreFail storeFail) {
        return new EngineOptions(store, maxValueLength, storeFail);
    }
}
