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
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * How the engine uses its {@link RateLimitStore} (issue 10, item 5): the keys it computes, the one
 * clock, no store call while an engine is built, a store that cannot answer, and counter names that
 * survive a reload.
 */
class EngineStoreTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    /** The in-memory store, with every call written down; {@link #answer}, when set, replaces its answers. */
    private static final class RecordingStore implements RateLimitStore {
        final RateLimitStore inMemory = RateLimitStore.inMemory();
        final List<String> calls = new ArrayList<>();
        Supplier<Admission> answer;

        @Override
        public Admission tryAcquire(Limit[] limits, String[] keys, long nowMillis) {
            List<String> counted = new ArrayList<>();
            for (int i = 0; i < limits.length; i++) {
                counted.add(limits[i].counter() + "@" + keys[i]);
            }
            calls.add("tryAcquire " + counted + " at " + Instant.ofEpochMilli(nowMillis));
            return answer != null ? answer.get() : inMemory.tryAcquire(limits, keys, nowMillis);
        }

        @Override
        public void prepare(Limit limit, long nowMillis) {
            calls.add("prepare " + limit.counter());
            inMemory.prepare(limit, nowMillis);
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
                "prepare shared", "prepare tools/a:9/1h/session/sliding", "prepare servers/github/tools/get_issue:3/1m/client/sliding");
        assertThat(engine.decide(call("a", "s1", "alice")).effect()).as("preparing counted nothing").isEqualTo(Effect.ALLOW);
    }

    @Test
    void warmingUpRehearsesEveryRuleOnAScratchStoreAndCountsNothingForReal() {
        PolicyEngine engine = engine("""
                version: "1"
                tools:
                  run: {require: [{path: cmd.name, op: regex, value: "^ls$"}], deny_if: [{path: n, op: gt, value: 5}],
                        limits: [{window: minute, max: 1}]}
                  "delete_*": {action: deny, reason: destructive}
                servers:
                  github: {tools: {get_issue: {limits: [{window: minute, max: 1, scope: client}]}}}
                """);
        List<String> rehearsed = new ArrayList<>();

        engine.warmUp((call, decision) -> rehearsed.add(call.side() + " " + call.server() + " " + call.tool() + " "
                + call.arguments() + " " + decision.effect()));

        assertThat(rehearsed).as("each rule: its own values, strings, no arguments; each decided twice").contains(
                "SERVER null run {cmd={name=^ls$}, n=5} DENY",
                "SERVER null run {cmd={name=x}, n=x} DENY",
                "SERVER null delete_x {} DENY",
                "CLIENT github get_issue {} ALLOW",
                "CLIENT github get_issue {} DENY",
                "SERVER null mcp-policy-rehearsal-unknown-tool {} DENY");
        assertThat(store.calls).as("the real store is only prepared").containsExactly("prepare servers/github/tools/get_issue:1/1m/client/sliding");
        Map<String, Object> ls = Map.of("cmd", Map.of("name", "ls"), "n", 1);
        assertThat(engine.decide(new ToolCall(Side.SERVER, null, "run", ls, "s1", "alice", null)).effect())
                .as("the rehearsal took nothing from the real limit of one").isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(new ToolCall(Side.SERVER, null, "run", ls, "s1", "alice", null)).effect()).isEqualTo(Effect.DENY);
    }

    @Test
    void warmingUpOnAFailingStoreThrowsNothingAndChangesNoDecision() {
        RateLimitStore failing = new RateLimitStore() {
            @Override
            public Admission tryAcquire(Limit[] limits, String[] keys, long nowMillis) {
                return Admission.unavailable("down");
            }

            @Override
            public void prepare(Limit limit, long nowMillis) {
                throw new IllegalStateException("down");
            }
        };
        PolicyEngine engine = engine("""
                version: "1"
                tools: {t: {limits: [{window: minute, max: 1, scope: client}]}}
                """, EngineOptions.withStore(failing));

        engine.warmUp();

        assertThat(engine.decide(call("t", "s1", "alice")).reason()).isEqualTo("rate limit store unavailable: down");
    }

    // --- a store that cannot answer ---

    private static final String TWO_LIMITS = """
            version: "1"
            all_tools: {limits: [{counter: z-all, window: minute, max: 100}]}
            tools:
              t: {limits: [{counter: a-own, window: minute, max: 1}]}
              watched: {mode: monitor, limits: [{window: minute, max: 1}]}
              approved: {action: require_approval, limits: [{window: minute, max: 1}]}
            """;

    @Test
    void anUnavailableStoreDeniesTheCallByItsFirstLimit() {
        store.answer = () -> Admission.unavailable("connection refused");
        PolicyEngine engine = engine(TWO_LIMITS);

        Decision decision = engine.decide(call("t", "s1", "alice"));

        assertThat(decision).isEqualTo(new Decision(Effect.DENY, Effect.DENY, "/all_tools/limits/0",
                "rate limit store unavailable: connection refused", 0));
        assertThat(decision.callerMessage("t"))
                .isEqualTo("Policy denied tool 't': rate limit store unavailable: connection refused [rule /all_tools/limits/0]");
        assertThat(engine.decide(call("watched", "s1", "alice")))
                .as("monitor mode lets it through and logs what enforcing would have done")
                .isEqualTo(new Decision(Effect.ALLOW, Effect.DENY, "/all_tools/limits/0", "rate limit store unavailable: connection refused", 0));
    }

    @Test
    void aStoreThatThrowsOrAnswersNothingIsUnavailable() {
        PolicyEngine engine = engine(TWO_LIMITS);

        store.answer = () -> {
            throw new IllegalStateException("timed out after 50 ms\nat redis:6379");
        };
        assertThat(engine.decide(call("t", "s1", "alice")))
                .isEqualTo(new Decision(Effect.DENY, Effect.DENY, "/all_tools/limits/0",
                        "rate limit store unavailable: IllegalStateException: timed out after 50 ms\\nat redis:6379", 0));

        store.answer = () -> {
            throw new NoClassDefFoundError("io/lettuce/core/RedisClient");
        };
        assertThat(engine.decide(call("t", "s1", "alice")).reason())
                .isEqualTo("rate limit store unavailable: NoClassDefFoundError: io/lettuce/core/RedisClient");

        store.answer = () -> null;
        assertThat(engine.decide(call("t", "s1", "alice")).reason()).isEqualTo("rate limit store unavailable: the store gave no answer");

        store.answer = () -> Admission.refusedBy(7, 1_000);
        assertThat(engine.decide(call("t", "s1", "alice")).reason()).isEqualTo("rate limit store unavailable: the store refused limit 7 of 2");
    }

    @Test
    void storeFailAllowLetsTheCallThroughUncountedAndSaysSo() {
        PolicyEngine engine = engine(TWO_LIMITS, EngineOptions.withStore(store).withStoreFail(EngineOptions.StoreFail.ALLOW));
        store.answer = () -> Admission.unavailable("connection refused");
        String reason = "rate limit store unavailable: connection refused; let through uncounted (store_fail=allow)";

        assertThat(engine.decide(call("t", "s1", "alice")))
                .isEqualTo(new Decision(Effect.ALLOW, Effect.DENY, "/all_tools/limits/0", reason, 0));
        assertThat(engine.decide(call("approved", "s1", "alice")))
                .as("a rule that asks for approval still does")
                .isEqualTo(new Decision(Effect.REQUIRE_APPROVAL, Effect.DENY, "/all_tools/limits/0", reason, 0));

        store.answer = null;
        assertThat(engine.decide(call("t", "s1", "alice")).effect()).as("the calls let through took no units").isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(call("t", "s1", "alice")).rule()).isEqualTo("/tools/t/limits/0");
    }

    // --- counter names ---

    @Test
    void anUnnamedLimitIsNamedByItsRuleAndSettings() {
        PolicyEngine engine = PolicyEngine.of(Policies.parse("""
                version: "1"
                all_tools: {limits: [{window: 60, max: 3, algorithm: fixed}]}
                tools:
                  run_command: {limits: [{window: minute, max: 1, scope: grant}]}
                  a/b: {limits: [{window: 1d, max: 1, algorithm: token_bucket}]}
                  c: {}
                """), clock);

        engine.decide(call("run_command", "s1", "alice"));
        assertThat(engine.decide(call("run_command", "s1", "alice")).reason())
                .isEqualTo("rate limit exceeded: counter 'tools/run_command:1/1m/client/sliding' allows 1 per 1m, scope client");
        engine.decide(call("a/b", "s1", "alice"));
        assertThat(engine.decide(call("a/b", "s1", "alice")).reason())
                .as("a tool name is escaped as in a JSON Pointer")
                .isEqualTo("rate limit exceeded: counter 'tools/a~1b:1/1d/global/token_bucket' allows 1 per 1d, scope global");
        assertThat(engine.decide(call("c", "s1", "alice")).effect()).as("the third call all_tools counts").isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(call("c", "s1", "alice")).reason())
                .isEqualTo("rate limit exceeded: counter 'all_tools:3/1m/global/fixed' allows 3 per 1m, scope global");
    }

    @Test
    void equalUnnamedLimitsOfOneRuleAreOneCounterAndOfTwoRulesTwo() {
        PolicyEngine engine = PolicyEngine.of(Policies.parse("""
                version: "1"
                tools:
                  a: {limits: [{window: minute, max: 2}, {window: 1m, max: 2, algorithm: sliding}]}
                  b: {limits: [{window: minute, max: 2}]}
                """), clock);
        assertThat(engine.decide(call("a", "s1", "alice")).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(call("a", "s1", "alice")).effect()).as("one counter, so each call is one unit").isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(call("a", "s1", "alice")).rule()).isEqualTo("/tools/a/limits/0");
        assertThat(engine.decide(call("b", "s1", "alice")).effect()).as("b's limit is b's own").isEqualTo(Effect.ALLOW);
    }

    /**
     * SPEC §7: counters keep their state across a reload. The reloaded policy adds a limit before the
     * {@code all_tools} one, a rule before {@code t}, and swaps {@code t}'s limits: under names made of
     * pointers ({@code /tools/t/limits/0}) each count would have moved to another limit.
     */
    @Test
    void aReloadThatReordersLimitsAndAddsRulesKeepsEachLimitsCount() {
        PolicyEngine before = PolicyEngine.of(Policies.parse("""
                version: "1"
                all_tools: {limits: [{window: hour, max: 4}]}
                tools:
                  t:
                    limits:
                      - {window: hour, max: 2, scope: client}
                      - {window: hour, max: 3}
                """), clock);
        assertThat(before.decide(call("t", "s1", "alice")).effect()).isEqualTo(Effect.ALLOW);
        assertThat(before.decide(call("t", "s1", "alice")).effect()).isEqualTo(Effect.ALLOW);

        PolicyEngine after = PolicyEngine.of(Policies.parse("""
                version: "1"
                all_tools: {limits: [{window: minute, max: 100}, {window: hour, max: 4}]}
                tools:
                  added: {limits: [{window: hour, max: 10}]}
                  t:
                    limits:
                      - {window: hour, max: 3}
                      - {window: hour, max: 2, scope: client}
                """), clock, EngineOptions.withStore(before.store()));

        Decision alice = after.decide(call("t", "s2", "alice"));
        assertThat(alice.rule()).as("alice's 2 of 2 carried over").isEqualTo("/tools/t/limits/1");
        assertThat(alice.reason()).isEqualTo("rate limit exceeded: counter 'tools/t:2/1h/client/sliding' allows 2 per 1h, scope client");
        assertThat(after.decide(call("t", "s3", "bob")).effect()).isEqualTo(Effect.ALLOW);
        Decision carol = after.decide(call("t", "s4", "carol"));
        assertThat(carol.rule()).as("the global 3 of 3").isEqualTo("/tools/t/limits/0");
        assertThat(carol.reason()).isEqualTo("rate limit exceeded: counter 'tools/t:3/1h/global/sliding' allows 3 per 1h, scope global");
        assertThat(after.decide(call("added", "s5", "dave")).effect()).isEqualTo(Effect.ALLOW);
        Decision eve = after.decide(call("added", "s6", "eve"));
        assertThat(eve.rule()).as("all_tools' 4 of 4: two calls before the reload, two after").isEqualTo("/all_tools/limits/1");
        assertThat(eve.reason()).isEqualTo("rate limit exceeded: counter 'all_tools:4/1h/global/sliding' allows 4 per 1h, scope global");
    }

    @Test
    void changingAnUnnamedLimitsSettingsStartsANewCounterWhileANamedOneKeepsItsCount() {
        PolicyEngine before = PolicyEngine.of(Policies.parse("""
                version: "1"
                tools:
                  unnamed: {limits: [{window: hour, max: 2}]}
                  named: {limits: [{counter: n, window: hour, max: 2}]}
                """), clock);
        for (String tool : List.of("unnamed", "unnamed", "named", "named")) {
            assertThat(before.decide(call(tool, "s1", "alice")).effect()).isEqualTo(Effect.ALLOW);
        }
        PolicyEngine after = PolicyEngine.of(Policies.parse("""
                version: "1"
                tools:
                  unnamed: {limits: [{window: hour, max: 3}]}
                  named: {limits: [{counter: n, window: hour, max: 3}]}
                """), clock, EngineOptions.withStore(before.store()));

        for (int i = 0; i < 3; i++) {
            assertThat(after.decide(call("unnamed", "s1", "alice")).effect()).as("a new counter: 3 more").isEqualTo(Effect.ALLOW);
        }
        assertThat(after.decide(call("unnamed", "s1", "alice")).effect()).isEqualTo(Effect.DENY);
        assertThat(after.decide(call("named", "s1", "alice")).effect()).as("2 + 1 of 3").isEqualTo(Effect.ALLOW);
        assertThat(after.decide(call("named", "s1", "alice")).effect()).isEqualTo(Effect.DENY);
    }
}
