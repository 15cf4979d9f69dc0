package dev.mcppolicy.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Scope;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rate-limit state in this JVM. A counter's {@link RateLimitStore#GLOBAL_KEY} state is held directly. Every other key
 * of a counter has its state in the counter's bounded Caffeine cache: an idle key expires once a full
 * window has passed since its last use, when every algorithm has room for a full burst again, so expiry
 * never changes a decision. The caches tell time by the latest {@code nowMillis} the engine passed
 * (there is no second clock to disagree with the engine's) and do their maintenance on the calling
 * thread (no background threads in the host).
 */
final class InMemoryRateLimitStore implements RateLimitStore {
    private static final String PREPARE_PROBE = "\u0000prepare";

    private final long maxKeysPerCounter;
    private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();
    /** The caches' ticker: the latest {@code nowMillis} a keyed call brought, in nanoseconds; it never goes back. */
    private final AtomicLong tickerNanos = new AtomicLong();

    InMemoryRateLimitStore(long maxKeysPerCounter) {
        this.maxKeysPerCounter = maxKeysPerCounter;
    }

    @Override
    public Admission tryAcquire(Limit limit, String key, long nowMillis) {
        // state(...) written out: one method less that C2 may compile on its own instead of inlining
        Counter counter = counter(limit);
        LimitState state = GLOBAL_KEY.equals(key) ? counter.global(limit, nowMillis) : counter.keyed(limit, key, nowMillis);
        synchronized (state) {
            long wait = state.waitMillis(limit, nowMillis);
            if (wait > 0) {
                return Admission.refusedBy(0, wait);
            }
            state.take(limit, nowMillis);
            return Admission.ADMITTED;
        }
    }

    @Override
    public Admission tryAcquire(Limit[] limits, String[] keys, long nowMillis) {
        if (limits.length == 1) {
            return tryAcquire(limits[0], keys[0], nowMillis);
        }
        LimitState[] states = new LimitState[limits.length];
        for (int i = 0; i < limits.length; i++) {
            states[i] = state(limits[i], keys[i], nowMillis);
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
     * Builds the counter's key cache now and runs one entry through it the way a call does (looked up,
     * computed in, then removed): that loads the cache's classes, most of a first call's cost. The caches'
     * ticker is moved to {@code nowMillis} first, so the cache's expiry timer wheel makes its one jump from
     * zero to the clock's time here: on a call that jump ran the wheel's maintenance cold and cost the first
     * decision of a keyed limit 1-4 ms in some JVMs (issue 16). The probe never replaces or removes a state a
     * call put under the same key.
     */
    @Override
    public void prepare(Limit limit, long nowMillis) {
        advanceTicker(nowMillis);
        Cache<String, LimitState> cache = counter(limit).keyedCache();
        LimitState probe = LimitState.create(limit, TimeUnit.NANOSECONDS.toMillis(tickerNanos.get()));
        if (cache.getIfPresent(PREPARE_PROBE) == null) {
            cache.asMap().compute(PREPARE_PROBE, (key, existing) -> existing != null ? existing : probe);
            cache.asMap().remove(PREPARE_PROBE, probe);
        }
    }

    @Override
    public List<CounterView> counters(Collection<Limit> limits, int maxKeysPerCounter, long nowMillis) {
        List<CounterView> views = new ArrayList<>();
        for (Limit limit : limits) {
            Counter counter = counters.get(limit.counter());
            if (limit.scope() == Scope.GLOBAL) {
                LimitState state = counter == null ? null : counter.global;
                views.add(state == null || state.algorithm() != limit.algorithm() ? CounterView.empty(limit, GLOBAL_KEY)
                        : view(limit, GLOBAL_KEY, state, nowMillis));
                continue;
            }
            Cache<String, LimitState> cache = counter == null ? null : counter.keyed;
            List<CounterView> keyed = new ArrayList<>();
            if (cache != null) {
                for (Map.Entry<String, LimitState> entry : cache.asMap().entrySet()) {
                    if (!PREPARE_PROBE.equals(entry.getKey()) && entry.getValue().algorithm() == limit.algorithm()) {
                        keyed.add(view(limit, entry.getKey(), entry.getValue(), nowMillis));
                    }
                }
            }
            if (keyed.isEmpty()) {
                views.add(CounterView.empty(limit, null));
                continue;
            }
            keyed.sort(Comparator.comparingLong(CounterView::used).reversed().thenComparing(CounterView::key));
            views.addAll(keyed.subList(0, Math.min(maxKeysPerCounter, keyed.size())));
        }
        return views;
    }

    private static CounterView view(Limit limit, String key, LimitState state, long now) {
        synchronized (state) {
            return new CounterView(limit.counter(), limit.scope(), key, state.used(limit, now), limit.max(), limit.window(),
                    limit.algorithm(), state.retryMillis(limit, now));
        }
    }

    private LimitState state(Limit limit, String key, long now) {
        Counter counter = counter(limit);
        return GLOBAL_KEY.equals(key) ? counter.global(limit, now) : counter.keyed(limit, key, now);
    }

    /** Moves the caches' ticker to {@code now} unless a call already took it further. */
    private void advanceTicker(long now) {
        long nanos = TimeUnit.MILLISECONDS.toNanos(now);
        long seen = tickerNanos.get();
        while (nanos > seen && !tickerNanos.compareAndSet(seen, nanos)) {
            seen = tickerNanos.get();
        }
    }

    private Counter counter(Limit limit) {
        Counter counter = counters.get(limit.counter());
        return counter != null ? counter : counters.computeIfAbsent(limit.counter(), name -> new Counter());
    }

    /** The states of one counter name: the global one, and the cache of the others by key. */
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
                        cache = IdleExpiry.newCache(maxKeysPerCounter, tickerNanos);
                        keyed = cache;
                    }
                }
            }
            return cache;
        }

        LimitState keyed(Limit limit, String key, long now) {
            advanceTicker(now);
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

    /**
     * Expires a state a full window after its last use. It also makes the caches, so that Caffeine's classes load with
     * the first keyed counter: verifying a method that hands an {@code IdleExpiry} to {@code expireAfter} loads
     * Caffeine's {@code Expiry} interface, and in this store's own class that was at every start, with any policy
     * (issue 16: the agent jar nests the libraries a start does not load).
     */
    private static final class IdleExpiry implements Expiry<String, LimitState> {
        static Cache<String, LimitState> newCache(long maxKeys, AtomicLong tickerNanos) {
            return Caffeine.newBuilder()
                    .maximumSize(maxKeys)
                    .ticker(tickerNanos::get)
                    .executor(Runnable::run)
                    .expireAfter(new IdleExpiry())
                    .build();
        }

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
