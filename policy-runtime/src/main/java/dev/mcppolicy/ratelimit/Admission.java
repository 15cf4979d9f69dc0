package dev.mcppolicy.ratelimit;

/**
 * The answer of {@link RateLimitStore#tryAcquire}: admitted, or refused by one limit with the time
 * until it has room again.
 *
 * @param refusedBy index (in the array given to the store) of the limit without room, or -1
 * @param retryAfterMillis how long until that limit has room again, or 0
 */
public record Admission(int refusedBy, long retryAfterMillis) {
    public static final Admission ADMITTED = new Admission(-1, 0);

    public boolean admitted() {
        return refusedBy < 0;
    }

    public static Admission refusedBy(int index, long retryAfterMillis) {
        return new Admission(index, Math.max(1, retryAfterMillis));
    }
}
