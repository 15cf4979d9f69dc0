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

    /** Exact sliding window: the times of the admitted calls still inside the window, oldest first. */
    static final class SlidingLog extends LimitState {
        private long[] times = new long[4];
        private int head;
        private int size;

        @Override
        Algorithm algorithm() {
            return Algorithm.SLIDING;
        }

        @Override
        long waitMillis(Limit limit, long now) {
            long window = limit.window().toMillis();
            while (size > 0 && times[head] <= now - window) {
                head = (head + 1) % times.length;
                size--;
            }
            if (size < limit.max()) {
                return 0;
            }
            long oldestThatMustLeave = times[(head + (int) (size - limit.max())) % times.length];
            return oldestThatMustLeave + window - now;
        }

        @Override
        void take(Limit limit, long now) {
            if (size == times.length) {
                long[] grown = new long[(int) Math.min(Math.max(8, (long) times.length * 2), Math.max(limit.max(), times.length + 1))];
                for (int i = 0; i < size; i++) {
                    grown[i] = times[(head + i) % times.length];
                }
                times = grown;
                head = 0;
            }
            times[(head + size) % times.length] = now;
            size++;
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
    }
}
