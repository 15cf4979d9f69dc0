package dev.mcppolicy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.ratelimit.Admission;
import dev.mcppolicy.ratelimit.RateLimitStore;
import dev.mcppolicy.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How the engine uses its {@link RateLimitStore} (issue 10, item 5): the keys it computes, the one
 * clock, and no store call while an engine is built.
 */
class EngineStoreTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    /** The in-memory store, with every call written down. */
    private static final class RecordingStore implements RateLimitStore {
        final RateLimitStore inMemory = RateLimitStore.inMemory();
        final List<String> calls = new ArrayList<>();

        @Override
        public Admission tryAcquire(Limit[] limits, String[] keys, long nowMillis) {
            List<String> counted = new ArrayList<>();
            for (int i = 0; i < limits.length; i++) {
                counted.add(limits[i].counter() + "@" + keys[i]);
            }
            calls.add("tryAcquire " + counted + " at " + Instant.ofEpochMilli(nowMillis));
            return inMemory.tryAcquire(limits, keys, nowMillis);
        }

        @Override
        public void prepare(Limit limit) {
            calls.add("prepare " + limit.counter());
            inMemory.prepare(limit);
        }
    }

    private final RecordingStore store = new RecordingStore();

    private PolicyEngine engine(String policy) {
        return engine(policy, EngineOptions.withStore(store));
    }

    private PolicyEngine engine(String policy, EngineOptions options) {
        return PolicyEngine.of(Policies.parse(policy), clock, options);
    }

    private static ToolCall call(String tool, String sessionId, String clientId) {
        return new ToolCall(Side.SERVER, null, tool, Map.of(), sessionId, clientId, null);
    }

    // --- keys and time ---

    @Test
    void passesTheStoreTheKeyOfEachLimitAndTheEnginesTime() {
        PolicyEngine engine = engine("""
                version: "1"
                all_tools: {limits: [{counter: all, window: minute, max: 100}]}
                tools:
                  t:
                    limits:
                      - {counter: per-session, window: minute, max: 100, scope: session}
                      - {counter: per-client, window: minute, max: 100, scope: grant}
                  one: {limits: [{counter: one, window: minute, max: 100, scope: client}]}
                """);
        clock.advance(Duration.ofSeconds(5));

        engine.decide(call("t", "s1", "alice"));
        engine.decide(call("t", null, null));
        engine.decide(call("one", "s1", "alice"));

        assertThat(store.calls).containsExactly(
                "tryAcquire [all@global, per-client@alice, per-session@s1] at 2026-01-01T00:00:05Z",
                "tryAcquire [all@global, per-client@, per-session@] at 2026-01-01T00:00:05Z",
                "tryAcquire [all@global, one@alice] at 2026-01-01T00:00:05Z");
    }

    @Test
    void aCallWithoutAnIdentityCountsInOneSharedBucket() {
        PolicyEngine engine = PolicyEngine.of(Policies.parse("""
                version: "1"
                tools: {t: {limits: [{window: minute, max: 1, scope: client}]}}
                """), clock);
        assertThat(engine.decide(call("t", null, null)).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(call("t", "s2", null)).effect()).as("no client id: the same bucket").isEqualTo(Effect.DENY);
        assertThat(engine.decide(call("t", null, "alice")).effect()).isEqualTo(Effect.ALLOW);
    }

    @Test
    void buildingAnEngineCallsNoStoreMethodAndWarmingUpPreparesEachKeyedCounterOnce() {
        PolicyEngine engine = engine("""
                version: "1"
                all_tools: {limits: [{counter: all, window: minute, max: 100}]}
                tools:
                  a: {limits: [{counter: shared, window: minute, max: 5, scope: client}, {window: hour, max: 9, scope: session}]}
                  b: {limits: [{counter: shared, window: minute, max: 5, scope: client}]}
                servers:
                  github: {tools: {get_issue: {limits: [{window: minute, max: 3, scope: client}]}}}
                """);
        assertThat(store.calls).as("PolicyEngine.of").isEmpty();

        engine.warmUp();

        assertThat(store.calls).containsExactlyInAnyOrder(
                "prepare shared", "prepare /tools/a/limits/1", "prepare /servers/github/tools/get_issue/limits/0");
        assertThat(engine.decide(call("a", "s1", "alice")).effect()).as("preparing counted nothing").isEqualTo(Effect.ALLOW);
    }

    @Test
    void warmingUpOnAFailingStoreThrowsNothingAndChangesNoDecision() {
        RateLimitStore failing = new RateLimitStore() {
            @Override
            public Admission tryAcquire(Limit[] limits, String[] keys, long nowMillis) {
                return Admission.ADMITTED;
            }

            @Override
            public void prepare(Limit limit) {
                throw new IllegalStateException("down");
            }
        };
        PolicyEngine engine = engine("""
                version: "1"
                tools: {t: {limits: [{window: minute, max: 1, scope: client}]}}
                """, EngineOptions.withStore(failing));

        engine.warmUp();

        assertThat(engine.decide(call("t", "s1", "alice")).effect()).isEqualTo(Effect.ALLOW);
    }
}
