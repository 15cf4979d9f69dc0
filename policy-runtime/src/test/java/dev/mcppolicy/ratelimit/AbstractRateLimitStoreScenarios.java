package dev.mcppolicy.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.policy.Algorithm;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Scope;
import dev.mcppolicy.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link RateLimitStore} shares, run on each: the three algorithms, keys, shared
 * counters, all-or-nothing, a reload's changed max or algorithm, and many threads at once. A subclass
 * gives the store, which tells time by the {@code nowMillis} the scenarios pass.
 */
abstract class AbstractRateLimitStoreScenarios {
    /** Starts one second before a UTC minute boundary, so fixed windows have an edge to cross. */
    protected final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:59Z"));
    protected final RateLimitStore store = newStore();

    /** A new, empty store that takes its time from the calls' {@code nowMillis}. */
    protected abstract RateLimitStore newStore();

    protected static Limit limit(String counter, Duration window, long max, Scope scope, Algorithm algorithm) {
        return new Limit(counter, window, max, scope, algorithm);
    }

    /** Takes from every limit under {@link RateLimitStore#GLOBAL_KEY}, the key the engine gives a global limit. */
    protected Admission take(Limit... limits) {
        return takeAs(RateLimitStore.GLOBAL_KEY, limits);
    }

    /** Takes from every limit under {@code key}. */
    protected Admission takeAs(String key, Limit... limits) {
        String[] keys = new String[limits.length];
        Arrays.fill(keys, key);
        return store.tryAcquire(limits, keys, clock.millis());
    }

    protected int admittedOf(int attempts, Limit limit) {
        return admittedOf(attempts, RateLimitStore.GLOBAL_KEY, limit);
    }

    protected int admittedOf(int attempts, String key, Limit limit) {
        int admitted = 0;
        for (int i = 0; i < attempts; i++) {
            if (takeAs(key, limit).admitted()) {
                admitted++;
            }
        }
        return admitted;
    }

    @Test
    void slidingWindowNeverAdmitsMoreThanMaxInAnyWindowLengthInterval() {
        Limit limit = limit("s", Duration.ofSeconds(10), 3, Scope.GLOBAL, Algorithm.SLIDING);
        assertThat(take(limit).admitted()).isTrue();
        clock.advance(Duration.ofSeconds(4));
        assertThat(take(limit).admitted()).isTrue();
        assertThat(take(limit).admitted()).isTrue();
        Admission refused = take(limit);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.retryAfterMillis()).as("the first call leaves the window at t=10s").isEqualTo(6_000);

        clock.advance(Duration.ofMillis(5_999));
        assertThat(take(limit).admitted()).as("at 9.999s all three are still inside").isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(take(limit).admitted()).as("at exactly 10s the first call has left").isTrue();
        assertThat(take(limit).admitted()).isFalse();
        assertThat(take(limit).retryAfterMillis()).as("the two calls of t=4s leave at t=14s").isEqualTo(4_000);
    }

    @Test
    void preparingALimitCountsNothing() {
        for (Algorithm algorithm : Algorithm.values()) {
            for (Scope scope : Scope.values()) {
                Limit limit = limit("p-" + algorithm + "-" + scope, Duration.ofMinutes(1), 1, scope, algorithm);
                store.prepare(limit, clock.millis());
                store.prepare(limit, clock.millis());
                String key = scope == Scope.GLOBAL ? RateLimitStore.GLOBAL_KEY : "c1";
                assertThat(takeAs(key, limit).admitted()).as(algorithm + " " + scope).isTrue();
                assertThat(takeAs(key, limit).admitted()).as(algorithm + " " + scope).isFalse();
            }
        }
    }

    @Test
    void slidingWindowCountsCallsOfOneMillisecondOneByOne() {
        Limit limit = limit("s", Duration.ofSeconds(10), 1_000, Scope.GLOBAL, Algorithm.SLIDING);
        assertThat(admittedOf(600, limit)).isEqualTo(600);
        clock.advance(Duration.ofSeconds(1));
        assertThat(admittedOf(600, limit)).isEqualTo(400);
        assertThat(take(limit).retryAfterMillis()).as("the 600 calls of t=0 leave together at t=10s").isEqualTo(9_000);
        clock.advance(Duration.ofSeconds(9));
        assertThat(admittedOf(700, limit)).isEqualTo(600);
    }

    @Test
    void slidingWindowWhoseMaxShrankWaitsForEnoughCallsToLeave() {
        Limit wide = limit("s", Duration.ofSeconds(10), 5, Scope.GLOBAL, Algorithm.SLIDING);
        Limit narrow = limit("s", Duration.ofSeconds(10), 3, Scope.GLOBAL, Algorithm.SLIDING);
        assertThat(admittedOf(2, wide)).isEqualTo(2);
        clock.advance(Duration.ofSeconds(1));
        assertThat(admittedOf(3, wide)).isEqualTo(3);
        assertThat(take(narrow).retryAfterMillis())
                .as("when the two calls of t=0 leave, three remain: the calls of t=1s must leave too")
                .isEqualTo(10_000);
    }

    @Test
    void slidingWindowHasNoBoundaryBurst() {
        Limit limit = limit("s", Duration.ofMinutes(1), 5, Scope.GLOBAL, Algorithm.SLIDING);
        assertThat(admittedOf(5, limit)).isEqualTo(5);
        clock.advance(Duration.ofSeconds(2));
        assertThat(admittedOf(5, limit)).as("crossing a calendar minute does not reset a sliding window").isZero();
    }

    @Test
    void fixedWindowResetsAtUtcCalendarBoundaries() {
        Limit limit = limit("f", Duration.ofMinutes(1), 5, Scope.GLOBAL, Algorithm.FIXED);
        assertThat(admittedOf(7, limit)).isEqualTo(5);
        Admission refused = take(limit);
        assertThat(refused.retryAfterMillis()).as("the window ends at 00:01:00").isEqualTo(1_000);
        clock.advance(Duration.ofMillis(999));
        assertThat(take(limit).admitted()).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(admittedOf(7, limit)).as("a new minute, a new window").isEqualTo(5);
    }

    @Test
    void fixedDayWindowsAlignToUtcMidnight() {
        clock.set(Instant.parse("2026-01-01T23:59:00Z"));
        Limit limit = limit("d", Duration.ofDays(1), 1, Scope.GLOBAL, Algorithm.FIXED);
        assertThat(take(limit).admitted()).isTrue();
        assertThat(take(limit).retryAfterMillis()).isEqualTo(60_000);
        clock.set(Instant.parse("2026-01-02T00:00:00Z"));
        assertThat(take(limit).admitted()).isTrue();
    }

    @Test
    void tokenBucketAllowsABurstThenRefillsContinuously() {
        Limit limit = limit("t", Duration.ofSeconds(10), 5, Scope.GLOBAL, Algorithm.TOKEN_BUCKET);
        assertThat(admittedOf(6, limit)).isEqualTo(5);
        Admission refused = take(limit);
        assertThat(refused.retryAfterMillis()).as("one token every 2s").isEqualTo(2_000);
        clock.advance(Duration.ofMillis(1_999));
        assertThat(take(limit).admitted()).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(take(limit).admitted()).isTrue();
        assertThat(take(limit).admitted()).isFalse();
        clock.advance(Duration.ofHours(1));
        assertThat(admittedOf(10, limit)).as("the bucket holds at most max tokens").isEqualTo(5);
    }

    @Test
    void eachKeyOfACounterHasItsOwnBudget() {
        Limit perClient = limit("pc", Duration.ofMinutes(1), 1, Scope.CLIENT, Algorithm.SLIDING);
        assertThat(takeAs("alice", perClient).admitted()).isTrue();
        assertThat(takeAs("alice", perClient).admitted()).as("the same key").isFalse();
        assertThat(takeAs("bob", perClient).admitted()).as("another key").isTrue();
        assertThat(takeAs("", perClient).admitted()).as("the engine's key for a call without an identity").isTrue();
        assertThat(takeAs("", perClient).admitted()).isFalse();
    }

    @Test
    void countsUnderTheKeyItIsGivenWhateverTheScope() {
        Limit perSession = limit("ps", Duration.ofMinutes(1), 1, Scope.SESSION, Algorithm.SLIDING);
        Limit global = limit("g", Duration.ofMinutes(1), 1, Scope.GLOBAL, Algorithm.SLIDING);
        assertThat(takeAs(RateLimitStore.GLOBAL_KEY, perSession).admitted()).isTrue();
        assertThat(takeAs("s1", perSession).admitted()).as("keys, not scopes, tell states apart").isTrue();
        assertThat(takeAs(RateLimitStore.GLOBAL_KEY, perSession).admitted()).isFalse();
        assertThat(takeAs("s1", global).admitted()).isTrue();
        assertThat(takeAs(RateLimitStore.GLOBAL_KEY, global).admitted()).isTrue();
        assertThat(takeAs("s1", global).admitted()).isFalse();
    }

    @Test
    void limitsWithTheSameCounterNameShareState() {
        Limit fromToolA = limit("shared", Duration.ofMinutes(1), 2, Scope.GLOBAL, Algorithm.SLIDING);
        Limit fromToolB = limit("shared", Duration.ofMinutes(1), 2, Scope.GLOBAL, Algorithm.SLIDING);
        assertThat(take(fromToolA).admitted()).isTrue();
        assertThat(take(fromToolB).admitted()).isTrue();
        assertThat(take(fromToolA).admitted()).isFalse();
    }

    @Test
    void takesFromEveryLimitOrFromNone() {
        Limit roomy = limit("a-roomy", Duration.ofMinutes(1), 10, Scope.GLOBAL, Algorithm.SLIDING);
        Limit tight = limit("b-tight", Duration.ofMinutes(1), 1, Scope.GLOBAL, Algorithm.SLIDING);
        assertThat(take(roomy, tight).admitted()).isTrue();
        for (int i = 0; i < 5; i++) {
            Admission refused = take(roomy, tight);
            assertThat(refused.admitted()).isFalse();
            assertThat(refused.refusedBy()).isEqualTo(1);
        }
        assertThat(admittedOf(20, roomy)).as("the refused calls took nothing from the roomy limit").isEqualTo(9);
    }

    @Test
    void changingACountersMaxKeepsItsCount() {
        Limit before = limit("c", Duration.ofMinutes(1), 3, Scope.GLOBAL, Algorithm.SLIDING);
        Limit after = limit("c", Duration.ofMinutes(1), 2, Scope.GLOBAL, Algorithm.SLIDING);
        assertThat(admittedOf(3, before)).isEqualTo(3);
        Admission refused = take(after);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.retryAfterMillis()).as("two of the three calls must leave: the second leaves at t+60s").isEqualTo(60_000);
    }

    @Test
    void changingACountersAlgorithmStartsItAfresh() {
        Limit sliding = limit("c", Duration.ofMinutes(1), 1, Scope.GLOBAL, Algorithm.SLIDING);
        Limit bucket = limit("c", Duration.ofMinutes(1), 1, Scope.GLOBAL, Algorithm.TOKEN_BUCKET);
        assertThat(take(sliding).admitted()).isTrue();
        assertThat(take(bucket).admitted()).isTrue();
        assertThat(take(bucket).admitted()).isFalse();
    }

    @Test
    void expiryOfIdleKeysNeverChangesADecision() {
        for (Algorithm algorithm : Algorithm.values()) {
            Limit limit = limit("e-" + algorithm, Duration.ofSeconds(30), 2, Scope.CLIENT, algorithm);
            assertThat(admittedOf(3, "alice", limit)).isEqualTo(2);
            clock.advance(Duration.ofSeconds(29));
            assertThat(takeAs("alice", limit).admitted()).as(algorithm + ": not yet expired, not yet full").isEqualTo(algorithm == Algorithm.TOKEN_BUCKET || algorithm == Algorithm.FIXED);
            clock.advance(Duration.ofMinutes(5));
            assertThat(admittedOf(3, "alice", limit)).as(algorithm + ": after expiry the key is as full as it would be anyway").isEqualTo(2);
        }
    }

    @Test
    void eightThreadsHammeringOneLimitAdmitExactlyMax() throws Exception {
        for (Algorithm algorithm : Algorithm.values()) {
            Limit limit = limit("hammer-" + algorithm, Duration.ofHours(1), 1_000, Scope.GLOBAL, algorithm);
            clock.set(Instant.parse("2026-01-01T00:10:00Z"));
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Integer>> results = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    results.add(pool.submit(() -> {
                        start.await();
                        int admitted = 0;
                        for (int i = 0; i < 500; i++) {
                            if (store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, clock.millis()).admitted()) {
                                admitted++;
                            }
                        }
                        return admitted;
                    }));
                }
                start.countDown();
                int total = 0;
                for (Future<Integer> result : results) {
                    total += result.get(30, TimeUnit.SECONDS);
                }
                assertThat(total).as(algorithm.toString()).isEqualTo(1_000);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void eightThreadsOnTwoOverlappingLimitsNeverOverspendEither() throws Exception {
        Limit shared = limit("m-shared", Duration.ofHours(1), 300, Scope.GLOBAL, Algorithm.SLIDING);
        Limit own = limit("n-own", Duration.ofHours(1), 200, Scope.GLOBAL, Algorithm.FIXED);
        clock.set(Instant.parse("2026-01-01T00:10:00Z"));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<int[]>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                boolean both = t % 2 == 0;
                results.add(pool.submit(() -> {
                    start.await();
                    int[] admitted = new int[2];
                    for (int i = 0; i < 200; i++) {
                        Limit[] limits = both ? new Limit[] {shared, own} : new Limit[] {shared};
                        String[] keys = both ? new String[] {RateLimitStore.GLOBAL_KEY, RateLimitStore.GLOBAL_KEY}
                                : new String[] {RateLimitStore.GLOBAL_KEY};
                        if (store.tryAcquire(limits, keys, clock.millis()).admitted()) {
                            admitted[both ? 1 : 0]++;
                        }
                    }
                    return admitted;
                }));
            }
            start.countDown();
            int sharedOnly = 0;
            int withOwn = 0;
            for (Future<int[]> result : results) {
                int[] admitted = result.get(30, TimeUnit.SECONDS);
                sharedOnly += admitted[0];
                withOwn += admitted[1];
            }
            assertThat(sharedOnly + withOwn).isEqualTo(300);
            assertThat(withOwn).isLessThanOrEqualTo(200);
        } finally {
            pool.shutdownNow();
        }
    }
}
