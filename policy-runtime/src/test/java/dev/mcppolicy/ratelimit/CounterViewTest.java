package dev.mcppolicy.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.policy.Algorithm;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Scope;
import dev.mcppolicy.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** {@link RateLimitStore#counters}: what the admin page shows, read without taking anything. */
class CounterViewTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:30Z"));
    private final RateLimitStore store = RateLimitStore.inMemory();

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void aGlobalCounterShowsItsUseAndTheRetryTheNextCallWouldGet(Algorithm algorithm) {
        Limit limit = new Limit("c", Duration.ofMinutes(1), 3, Scope.GLOBAL, algorithm);
        assertThat(store.counters(List.of(limit), 10, clock.millis()))
                .containsExactly(new CounterView("c", Scope.GLOBAL, "global", 0, 3, Duration.ofMinutes(1), algorithm, 0));
        store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, clock.millis());
        clock.advance(Duration.ofSeconds(1));
        store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, clock.millis());
        assertThat(store.counters(List.of(limit), 10, clock.millis())).singleElement()
                .satisfies(view -> assertThat(view.used()).isEqualTo(2)).satisfies(view -> assertThat(view.retryAfterMillis()).isZero());
        store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, clock.millis());
        clock.advance(Duration.ofMillis(200));

        CounterView full = store.counters(List.of(limit), 10, clock.millis()).get(0);
        assertThat(full.used()).isEqualTo(3);
        assertThat(full.retryAfterMillis()).isPositive();
        for (int i = 0; i < 3; i++) {
            assertThat(store.counters(List.of(limit), 10, clock.millis())).as("reading changes nothing").containsExactly(full);
        }
        Admission refused = store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, clock.millis());
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.retryAfterMillis()).as("the retry the view showed").isEqualTo(full.retryAfterMillis());
    }

    @Test
    void slidingCountsLeaveTheViewAsTheyLeaveTheWindow() {
        Limit limit = new Limit("s", Duration.ofSeconds(10), 2, Scope.GLOBAL, Algorithm.SLIDING);
        store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, clock.millis());
        clock.advance(Duration.ofSeconds(4));
        store.tryAcquire(limit, RateLimitStore.GLOBAL_KEY, clock.millis());
        assertThat(store.counters(List.of(limit), 10, clock.millis()).get(0).retryAfterMillis()).isEqualTo(6_000);
        clock.advance(Duration.ofSeconds(6));
        CounterView view = store.counters(List.of(limit), 10, clock.millis()).get(0);
        assertThat(view.used()).isEqualTo(1);
        assertThat(view.retryAfterMillis()).isZero();
    }

    @Test
    void aChangedMaxShowsAsItApplies() {
        Limit two = new Limit("c", Duration.ofHours(1), 2, Scope.GLOBAL, Algorithm.SLIDING);
        store.tryAcquire(two, RateLimitStore.GLOBAL_KEY, clock.millis());
        store.tryAcquire(two, RateLimitStore.GLOBAL_KEY, clock.millis());
        Limit three = new Limit("c", Duration.ofHours(1), 3, Scope.GLOBAL, Algorithm.SLIDING);
        CounterView view = store.counters(List.of(three), 10, clock.millis()).get(0);
        assertThat(view.used()).isEqualTo(2);
        assertThat(view.max()).isEqualTo(3);
        assertThat(view.retryAfterMillis()).isZero();
    }

    @Test
    void keyedCountersShowEachKeyMostUsedFirstUpToTheCapAndAnEmptyOneShowsNoKey() {
        Limit limit = new Limit("k", Duration.ofMinutes(1), 5, Scope.SESSION, Algorithm.FIXED);
        store.prepare(limit, clock.millis());
        assertThat(store.counters(List.of(limit), 10, clock.millis()))
                .containsExactly(new CounterView("k", Scope.SESSION, null, 0, 5, Duration.ofMinutes(1), Algorithm.FIXED, 0));
        for (String key : List.of("a", "b", "b", "c", "c", "c")) {
            store.tryAcquire(limit, key, clock.millis());
        }
        assertThat(store.counters(List.of(limit), 2, clock.millis())).extracting(CounterView::key, CounterView::used)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("c", 3L), org.assertj.core.groups.Tuple.tuple("b", 2L));
        assertThat(store.counters(List.of(limit), 10, clock.millis())).hasSize(3);
    }

    @Test
    void aStoreThatCannotTellShowsNothing() {
        RateLimitStore opaque = (limits, keys, now) -> Admission.ADMITTED;
        assertThat(opaque.counters(List.of(new Limit("c", Duration.ofMinutes(1), 1, Scope.GLOBAL, Algorithm.FIXED)), 10, 0)).isEmpty();
    }
}
