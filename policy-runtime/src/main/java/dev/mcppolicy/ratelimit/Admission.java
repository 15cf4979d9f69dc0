package dev.mcppolicy.ratelimit;

/**
 * The answer of {@link RateLimitStore#tryAcquire}: admitted; refused by one limit, with the time until
 * it has room again; or unavailable, when the store could not answer at all (a shared store that
 * cannot be reached, say). The engine decides an unavailable store by its {@code store_fail} option.
 *
 * @param refusedBy index (in the array given to the store) of the limit without room, or -1
 * @param retryAfterMillis how long until that limit has room again, or 0
 * @param unavailableReason why the store could not answer, or {@code null} when it did
 */
public record Admission(int refusedBy, long retryAfterMillis, String unavailableReason) {
    public static final Admission ADMITTED = new Admission(-1, 0, null);

    public Admission {
        if (unavailableReason != null && refusedBy >= 0) {
            throw new IllegalArgumentException("an unavailable store refuses no particular limit");
        }
    }

    /** One unit was taken from every limit. */
    public boolean admitted() {
        return refusedBy < 0 && unavailableReason == null;
    }

    /** The store could not answer, so nothing is known about the limits and nothing was taken. */
    public boolean isUnavailable() {
        return unavailableReason != null;
    }

    public static Admission refusedBy(int index, long retryAfterMillis) {
        return new Admission(index, Math.max(1, retryAfterMillis), null);
    }

    /** The store could not answer; {@code reason} says why (it is shown to the caller and logged). */
    public static Admission unavailable(String reason) {
        return new Admission(-1, 0, reason == null || reason.isEmpty() ? "no reason given" : reason);
    }
}
