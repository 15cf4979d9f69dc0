package dev.mcppolicy.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Scope;
import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Rate-limit state in this JVM. A {@code global} counter has one state, held directly. A
 * {@code session} or {@code client} counter has a bounded Caffeine cache from scope key to state: an
 * idle key expires once a full window has passed since its last use, when every algorithm has room for
 * a full burst again, so expiry never changes a decision. The caches run on the engine's clock and do
 * their maintenance on the calling thread (no background threads in the host).
 */
final class InMemoryRateLimitStore implements RateLimitStore {
    /** The key of a call that carries no identity for a {@code session} or {@code client} limit: one shared bucket. */
    static final String ANONYMOUS_KEY = "";
    static final int MAX_KEY_LENGTH = 256;
    /** Marks a hashed key; no id is likely to start with NUL, and matching one would take the long id's SHA-256 preimage. */
    private static final String LONG_KEY_PREFIX = "\u0000sha256:";

    private final Clock clock;
    private final long maxKeysPerCounter;
    private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();

    InMemoryRateLimitStore(Clock clock, long maxKeysPerCounter) {
        this.clock = clock;
        this.maxKeysPerCounter = maxKeysPerCounter;
    }

    @Override
    public Admission tryAcquire(Limit[] limits, String sessionId, String clientId, long nowMillis) {
        if (limits.length == 1) {
            Limit limit = limits[0];
            LimitState state = state(limit, key(limit, sessionId, clientId), nowMillis);
            synchronized (state) {
                long wait = state.waitMillis(limit, nowMillis);
                if (wait > 0) {
                    return Admission.refusedBy(0, wait);
                }
                state.take(limit, nowMillis);
                return Admission.ADMITTED;
            }
        }
        LimitState[] states = new LimitState[limits.length];
        for (int i = 0; i < limits.length; i++) {
            states[i] = state(limits[i], key(limits[i], sessionId, clientId), nowMillis);
        }
        return acquireLocked(limits, states, 0, nowMillis);
    }

    /** Locks the states one by one in counter order, checks them all, then takes from all or none. */
    private static Admission acquireLocked(Limit[] limits, LimitState[] states, int from, long now) {
        if (from == states.length) {
            for (int i = 0; i < states.length; i++) {
                long wait = states[i].waitMillis(limits[i], now);
                if (wait > 0) {
                    return Admission.refusedBy(i, wait);
                }
            }
            for (int i = 0; i < states.length; i++) {
                states[i].take(limits[i], now);
            }
            return Admission.ADMITTED;
        }
        synchronized (states[from]) {
            return acquireLocked(limits, states, from + 1, now);
        }
    }

    /**
     * The scope key of a call. A session or client id longer than {@value #MAX_KEY_LENGTH} chars (a
     * self-declared client name can be anything) is counted under its SHA-256 instead, so that the
     * bounded number of keys also bounds their memory.
     */
    static String key(Limit limit, String sessionId, String clientId) {
        String key = limit.scope() == Scope.SESSION ? sessionId : limit.scope() == Scope.CLIENT ? clientId : ANONYMOUS_KEY;
        if (key == null) {
            return ANONYMOUS_KEY;
        }
        return key.length() <= MAX_KEY_LENGTH ? key : LONG_KEY_PREFIX + CanonicalJson.sha256Hex(chars(key));
    }

    /** Every UTF-16 unit as two bytes: unlike a charset encoder, it keeps lone surrogates apart. */
    private static byte[] chars(String text) {
        byte[] bytes = new byte[text.length() * 2];
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            bytes[2 * i] = (byte) (c >> 8);
            bytes[2 * i + 1] = (byte) c;
        }
        return bytes;
    }

    /** Builds the key cache of a {@code session} or {@code client} counter now rather than on its first call. */
    @Override
    public void prepare(Limit limit) {
        if (limit.scope() != Scope.GLOBAL) {
            // one entry in and out loads the cache's entry classes too, which is most of the first call's cost
            Cache<String, LimitState> cache = counter(limit).keyedCache();
            String probe = "\u0000prepare";
            cache.put(probe, LimitState.create(limit, clock.millis()));
            cache.invalidate(probe);
        }
    }

    private LimitState state(Limit limit, String key, long now) {
        Counter counter = counter(limit);
        return limit.scope() == Scope.GLOBAL ? counter.global(limit, now) : counter.keyed(limit, key, now);
    }

    private Counter counter(Limit limit) {
        Counter counter = counters.get(limit.counter());
        return counter != null ? counter : counters.computeIfAbsent(limit.counter(), name -> new Counter());
    }

    /** The states of one counter name. */
    private final class Counter {
        private volatile LimitState global;
        private volatile Cache<String, LimitState> keyed;

        LimitState global(Limit limit, long now) {
            LimitState state = global;
            if (state == null || state.algorithm() != limit.algorithm()) {
                synchronized (this) {
                    state = global;
                    if (state == null || state.algorithm() != limit.algorithm()) {
                        state = LimitState.create(limit, now);
                        global = state;
                    }
                }
            }
            return state;
        }

        Cache<String, LimitState> keyedCache() {
            Cache<String, LimitState> cache = keyed;
            if (cache == null) {
                synchronized (this) {
                    cache = keyed;
                    if (cache == null) {
                        cache = newCache();
                        keyed = cache;
                    }
                }
            }
            return cache;
        }

        LimitState keyed(Limit limit, String key, long now) {
            Cache<String, LimitState> cache = keyedCache();
            LimitState state = cache.getIfPresent(key);
            if (state == null || state.algorithm() != limit.algorithm()) {
                state = cache.asMap().compute(key, (k, existing) ->
                        existing != null && existing.algorithm() == limit.algorithm() ? existing : LimitState.create(limit, now));
            }
            long idle = limit.window().toNanos();
            if (state.idleNanos != idle) {
                state.idleNanos = idle;
            }
            return state;
        }
    }

    private Cache<String, LimitState> newCache() {
        return Caffeine.newBuilder()
                .maximumSize(maxKeysPerCounter)
                .ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
                .executor(Runnable::run)
                .expireAfter(new IdleExpiry())
                .build();
    }

    /** Expires a state a full window after its last use. */
    private static final class IdleExpiry implements Expiry<String, LimitState> {
        @Override
        public long expireAfterCreate(String key, LimitState state, long currentTime) {
            return state.idleNanos;
        }

        @Override
        public long expireAfterUpdate(String key, LimitState state, long currentTime, long currentDuration) {
            return state.idleNanos;
        }

        @Override
        public long expireAfterRead(String key, LimitState state, long currentTime, long currentDuration) {
            return state.idleNanos;
        }
    }
}
