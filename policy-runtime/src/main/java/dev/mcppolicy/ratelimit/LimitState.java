package dev.mcppolicy.ratelimit;

import dev.mcppolicy.policy.Algorithm;
import dev.mcppolicy.policy.Limit;

/**
 * The state of one counter for one scope key. Callers hold the object's monitor around
 * {@link #waitMillis} and {@link #take}. The limit is passed in on every call rather than kept, so a
 * reloaded policy that changes a counter's max or window keeps the counts already made.
 */
abstract class LimitState {
    /** How long this state stays in the store after its last use: by then it has room for a full burst again. */
    volatile long idleNanos;

    abstract Algorithm algorithm();

    /** 0 when the limit has room now, else milliseconds until it will. */
    abstract long waitMillis(Limit limit, long now);

    /** Takes one unit; only after {@link #waitMillis} said 0 at the same {@code now}. */
    abstract void take(Limit limit, long now);

    /** The units taken that still count at {@code now}; reads only (the admin page's view). */
    abstract long used(Limit limit, long now);

    /** What {@link #waitMillis} would answer at {@code now}, without changing anything. */
    abstract long retryMillis(Limit limit, long now);

    static LimitState create(Limit limit, long now) {
        LimitState state;
        switch (limit.algorithm()) {
            case SLIDING: state = new SlidingLog(); break;
            case FIXED: state = new FixedWindow(); break;
            default: state = new TokenBucket(limit, now); break;
        }
        state.idleNanos = limit.window().toNanos();
        return state;
    }

    /**
     * Exact sliding window: the admitted calls still inside the window, oldest first, as
     * (millisecond, count) pairs. Calls in the same millisecond share one pair, so memory is bounded
     * both by {@code max} and by the window's length in milliseconds.
     */
    static final class SlidingLog extends LimitState {
        private long[] times = new long[4];
        private long[] counts = new long[4];
        private int head;
        private int size;
        private long total;

        @Override
        Algorithm algorithm() {
            return Algorithm.SLIDING;
        }

        @Override
        long waitMillis(Limit limit, long now) {
            long window = limit.window().toMillis();
            while (size > 0 && times[head] <= now - window) {
                total -= counts[head];
                head = (head + 1) % times.length;
                size--;
            }
            if (total < limit.max()) {
                return 0;
            }
            long mustLeave = total - limit.max();
            int i = head;
            long left = counts[i];
            while (left <= mustLeave) {
                i = (i + 1) % times.length;
                left += counts[i];
            }
            return times[i] + window - now;
        }

        @Override
        long used(Limit limit, long now) {
            long window = limit.window().toMillis();
            long used = 0;
            for (int n = 0; n < size; n++) {
                int i = (head + n) % times.length;
                if (times[i] > now - window) {
                    used += counts[i];
                }
            }
            return used;
        }

        @Override
        long retryMillis(Limit limit, long now) {
            long window = limit.window().toMillis();
            long used = used(limit, now);
            if (used < limit.max()) {
                return 0;
            }
            long mustLeave = used - limit.max();
            long left = 0;
            for (int n = 0; n < size; n++) {
                int i = (head + n) % times.length;
                if (times[i] > now - window) {
                    left += counts[i];
                    if (left > mustLeave) {
                        return times[i] + window - now;
                    }
                }
            }
            return 0;
        }

        @Override
        void take(Limit limit, long now) {
            total++;
            if (size > 0) {
                int newest = (head + size - 1) % times.length;
                if (times[newest] == now) {
                    counts[newest]++;
                    return;
                }
            }
            if (size == times.length) {
                grow();
            }
            int slot = (head + size) % times.length;
            times[slot] = now;
            counts[slot] = 1;
            size++;
        }

        private void grow() {
            long[] grownTimes = new long[times.length * 2];
            long[] grownCounts = new long[times.length * 2];
            for (int i = 0; i < size; i++) {
                grownTimes[i] = times[(head + i) % times.length];
                grownCounts[i] = counts[(head + i) % times.length];
            }
            times = grownTimes;
            counts = grownCounts;
            head = 0;
        }
    }

    /** Fixed windows aligned to the epoch, so minute, hour and day windows are UTC calendar windows. */
    static final class FixedWindow extends LimitState {
        private long windowStart = Long.MIN_VALUE;
        private long count;

        @Override
        Algorithm algorithm() {
            return Algorithm.FIXED;
        }

        @Override
        long waitMillis(Limit limit, long now) {
            long window = limit.window().toMillis();
            long start = Math.floorDiv(now, window) * window;
            if (start != windowStart) {
                windowStart = start;
                count = 0;
            }
            return count < limit.max() ? 0 : windowStart + window - now;
        }

        @Override
        void take(Limit limit, long now) {
            count++;
        }

        @Override
        long used(Limit limit, long now) {
            long window = limit.window().toMillis();
            return Math.floorDiv(now, window) * window == windowStart ? count : 0;
        }

        @Override
        long retryMillis(Limit limit, long now) {
            long window = limit.window().toMillis();
            return used(limit, now) < limit.max() ? 0 : windowStart + window - now;
        }
    }

    /** Burst of {@code max}, refilled continuously at {@code max / window}. */
    static final class TokenBucket extends LimitState {
        private double tokens;
        private long refilledAt;

        TokenBucket(Limit limit, long now) {
            this.tokens = limit.max();
            this.refilledAt = now;
        }

        @Override
        Algorithm algorithm() {
            return Algorithm.TOKEN_BUCKET;
        }

        @Override
        long waitMillis(Limit limit, long now) {
            double perMilli = (double) limit.max() / limit.window().toMillis();
            if (now > refilledAt) {
                tokens = Math.min(limit.max(), tokens + (now - refilledAt) * perMilli);
                refilledAt = now;
            }
            if (tokens >= 1 - 1e-9) {
                return 0;
            }
            return (long) Math.ceil((1 - tokens) / perMilli);
        }

        @Override
        void take(Limit limit, long now) {
            tokens = Math.max(0, tokens - 1);
        }

        private double tokensAt(Limit limit, long now) {
            double perMilli = (double) limit.max() / limit.window().toMillis();
            return now > refilledAt ? Math.min(limit.max(), tokens + (now - refilledAt) * perMilli) : tokens;
        }

        @Override
        long used(Limit limit, long now) {
            return Math.max(0, limit.max() - (long) Math.floor(tokensAt(limit, now) + 1e-9));
        }

        @Override
        long retryMillis(Limit limit, long now) {
            double left = tokensAt(limit, now);
            return left >= 1 - 1e-9 ? 0 : (long) Math.ceil((1 - left) / ((double) limit.max() / limit.window().toMillis()));
        }
    }
}
