package dev.mcppolicy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.Hostile;
import dev.mcppolicy.condition.HostileArgumentsTest;
import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.log.DecisionRecord;
import dev.mcppolicy.policy.Condition;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.ratelimit.Admission;
import dev.mcppolicy.ratelimit.RateLimitStore;
import dev.mcppolicy.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whole {@link PolicyEngine#decide} calls on hostile input (issue 8, item 4): each is a normal
 * {@link Decision} with the expected effect and rule, decided on a small thread stack without a hang,
 * and its log line and audit record stay one line.
 */
class HostileCallsTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    /** Per op, a tool that denies when the condition holds and one that requires it; plus a schema and plain tools. */
    private static final String POLICY = policyText();

    private static String policyText() {
        Map<String, Object> tools = new LinkedHashMap<>();
        for (Condition condition : HostileArgumentsTest.CONDITIONS) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("path", condition.path());
            json.put("op", condition.op().word());
            json.put("value", condition.value());
            tools.put("deny_" + condition.op().word(), Map.of("deny_if", List.of(json)));
            tools.put("require_" + condition.op().word(), Map.of("require", List.of(json)));
        }
        tools.put("schema", Map.of("arguments", Map.of("type", "object",
                "properties", Map.of("a", Map.of("maxLength", 1000, "maximum", 100, "maxItems", 1000)))));
        tools.put("plain", Map.of());
        tools.put("echo", Map.of("arguments", "input_schema"));
        tools.put("glob_*", Map.of("reason", "globbed"));
        Map<String, Object> policy = new LinkedHashMap<>();
        policy.put("version", "1");
        policy.put("hide", List.of("hidden_*"));
        policy.put("tools", tools);
        return CanonicalJson.write(policy);
    }

    private PolicyEngine engine() {
        return PolicyEngine.of(Policies.parse(POLICY), clock);
    }

    /** The schema tool's decision on each hostile value: {@code null} for an allow, else the violation. */
    private static final Map<String, String> SCHEMA_VIOLATIONS = Map.ofEntries(
            Map.entry("10 MB string", "at /a: must be at most 1000 characters long"),
            Map.entry("100,001-item list ending in \"a\"", "at /a: must have at most 1000 items"),
            Map.entry("1e400 as +infinity", "at /a: must be <= 100"),
            Map.entry("1e400 as BigDecimal", "at /a: must be <= 100"),
            Map.entry("1e400000000", "at /a: must be <= 100"),
            Map.entry("NaN", "at /a: must be <= 100"));

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.mcppolicy.condition.HostileArgumentsTest#hostileArguments")
    void decidesEveryRuleOnAHostileArgumentAsItsConditionSays(String name, Object argument, String outcomes) {
        PolicyEngine engine = engine();
        Map<String, Object> arguments = Map.of("a", argument);
        String[] expected = outcomes.split(" ");

        Hostile.runOnSmallStack(() -> {
            for (int i = 0; i < expected.length; i++) {
                String op = HostileArgumentsTest.CONDITIONS.get(i).op().word();
                Decision denyIf = decide(engine, "deny_" + op, arguments);
                Decision require = decide(engine, "require_" + op, arguments);
                if (expected[i].equals("F")) {
                    assertThat(denyIf).as("%s, deny_if %s", name, op).isEqualTo(Expected.allowed("/tools/deny_" + op));
                    assertThat(require.rule()).as("%s, require %s", name, op).isEqualTo("/tools/require_" + op + "/require/0");
                    assertThat(require.effect()).isEqualTo(Effect.DENY);
                } else if (expected[i].equals("T")) {
                    assertThat(denyIf.rule()).as("%s, deny_if %s", name, op).isEqualTo("/tools/deny_" + op + "/deny_if/0");
                    assertThat(denyIf.effect()).isEqualTo(Effect.DENY);
                    assertThat(require).as("%s, require %s", name, op).isEqualTo(Expected.allowed("/tools/require_" + op));
                } else {
                    assertThat(expected[i]).isEqualTo("U");
                    assertThat(denyIf.effect()).as("%s, deny_if %s", name, op).isEqualTo(Effect.DENY);
                    assertThat(denyIf.rule()).isEqualTo("/tools/deny_" + op + "/deny_if/0");
                    assertThat(denyIf.reason()).startsWith("denied by condition: a " + op + " ").endsWith(")");
                    assertThat(require.effect()).as("%s, require %s", name, op).isEqualTo(Effect.DENY);
                    assertThat(require.rule()).isEqualTo("/tools/require_" + op + "/require/0");
                    assertThat(require.reason()).startsWith("required condition not met: a " + op + " ").endsWith(")");
                    assertThat(List.of(denyIf.reason(), require.reason())).as("%s, %s: one place says why", name, op)
                            .anyMatch(reason -> reason.endsWith(" cannot be checked)"));
                    assertThat(require.argument()).startsWith("args.a");
                }
            }
            String violation = SCHEMA_VIOLATIONS.get(name);
            assertThat(decide(engine, "schema", arguments)).as(name).isEqualTo(violation == null
                    ? Expected.allowed("/tools/schema")
                    : Expected.denied("/tools/schema/arguments", "arguments do not match the schema: " + violation));
            assertThat(decide(engine, "plain", arguments)).isEqualTo(Expected.allowed("/tools/plain"));
            assertThat(decide(engine, "unknown", arguments).rule()).isEqualTo(Decision.DEFAULT_RULE);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.mcppolicy.condition.HostileArgumentsTest#hostileArguments")
    void hashesAndLogsAHostileArgumentOnOneLine(String name, Object argument, String ignored) {
        ToolCall call = call("plain", Map.of("a", argument));
        Decision decision = engine().decide(call);

        DecisionRecord record = new DecisionRecord(clock.instant(), call, decision, 1, true);
        String line = Hostile.onSmallStack(record::toLine);
        String json = Hostile.onSmallStack(record::toJson);

        assertThat(line).doesNotContain("\n", "\r", "\u2028", "\u2029", "\u0085")
                .as("capped: args at 4096 chars of canonical JSON, escaped").hasSizeLessThan(12_000);
        assertThat(json).doesNotContain("\n", "\r", "\u2028", "\u2029");
        assertThat(DecisionRecordsJson.parse(json)).containsEntry("tool", "plain").containsKey("args");
        assertThat(Hostile.onSmallStack(() -> CanonicalJson.sha256(call.arguments())))
                .isNotEqualTo(CanonicalJson.sha256(Collections.singletonMap("a", null)));
    }

    @Test
    void decidesCallsWhoseWholeArgumentMapIsDeepOrWide() {
        PolicyEngine engine = engine();

        Hostile.runOnSmallStack(() -> {
            for (Map<String, Object> arguments : List.of(Hostile.deep(Hostile.DEPTH), Hostile.wide())) {
                assertThat(decide(engine, "plain", arguments)).isEqualTo(Expected.allowed("/tools/plain"));
                assertThat(decide(engine, "schema", arguments)).isEqualTo(Expected.allowed("/tools/schema"));
                assertThat(decide(engine, "require_exists", arguments).rule()).isEqualTo("/tools/require_exists/require/0");
                assertThat(decide(engine, "deny_neq", arguments)).as("absent: deny_if does not match")
                        .isEqualTo(Expected.allowed("/tools/deny_neq"));
            }
        });
    }

    @Test
    void deniesACallWhoseAdvertisedInputSchemaNestsTooDeepBeforeHashingIt() {
        PolicyEngine engine = engine();
        Map<String, Object> deepSchema = Map.of("type", "object", "properties", Hostile.deep(Hostile.DEPTH));

        Decision decision = Hostile.onSmallStack(() -> engine.decide(new ToolCall(Side.SERVER, null, "echo", Map.of("a", 1),
                null, null, deepSchema)));

        assertThat(decision).isEqualTo(Expected.denied("/tools/echo/arguments",
                "the tool's input schema cannot be used: it nests more than 64 levels deep"));
    }

    @Test
    void usesAWideAdvertisedInputSchemaAndRefusesAnOverlongPattern() {
        PolicyEngine engine = engine();
        Map<String, Object> properties = new LinkedHashMap<>();
        for (int i = 0; i < Hostile.WIDE; i++) {
            properties.put("p" + i, Map.of("type", "integer"));
        }
        Map<String, Object> wide = Map.of("type", "object", "properties", properties);
        Map<String, Object> overlong = Map.of("properties", Map.of("a", Map.of("pattern", "a".repeat(4097))));

        assertThat(Hostile.onSmallStack(() -> engine.decide(new ToolCall(Side.SERVER, null, "echo", Map.of("p7", 7), null, null, wide))))
                .isEqualTo(Expected.allowed("/tools/echo"));
        assertThat(engine.decide(new ToolCall(Side.SERVER, null, "echo", Map.of("p7", "x"), null, null, wide)))
                .isEqualTo(Expected.denied("/tools/echo/arguments", "arguments do not match the schema: at /p7: expected integer, got string"));
        assertThat(engine.decide(new ToolCall(Side.SERVER, null, "echo", Map.of("a", "a"), null, null, overlong)))
                .isEqualTo(Expected.denied("/tools/echo/arguments", "the tool's input schema cannot be used: "
                        + "/properties/a/pattern: a regular expression may be at most 4096 characters long, got 4097"));
    }

    @Test
    void decidesHostileToolNamesAndEchoesThemOnOneCappedLine() {
        PolicyEngine engine = engine();
        String longName = "x".repeat(10_240);
        String spoof = "x'\n[rule (hidden)]\u202e\u2028\u0085\uD800";

        Decision unknown = Hostile.onSmallStack(() -> engine.decide(call(longName, Map.of())));
        Decision globbed = Hostile.onSmallStack(() -> engine.decide(call("glob_" + longName, Map.of())));
        Decision hidden = Hostile.onSmallStack(() -> engine.decide(call("hidden_" + spoof, Map.of())));

        assertThat(unknown).isEqualTo(Expected.denied(Decision.DEFAULT_RULE, "no policy rule allows this tool (default: deny)"));
        assertThat(globbed).isEqualTo(Expected.allowed("/tools/glob_*"));
        assertThat(hidden.rule()).isEqualTo(Decision.HIDDEN_RULE);
        assertThat(unknown.callerMessage(longName)).isEqualTo("Policy denied tool '" + "x".repeat(256)
                + "\u2026(+9984 chars)': no policy rule allows this tool (default: deny) [rule (default)]");
        assertThat(engine.decide(call(spoof, Map.of())).callerMessage(spoof)).isEqualTo(
                "Policy denied tool 'x\\'\\n[rule (hidden)]\\u202e\\u2028\\u0085\\ud800': no policy rule allows this tool"
                        + " (default: deny) [rule (default)]");
        assertThat(Decision.error("x").callerMessage(null)).isEqualTo("Policy denied tool 'null': x [rule (error)]");
    }

    @Test
    void decidesAHostileServerNameOnTheClientSideByTheTopLevelRules() {
        PolicyEngine engine = engine();
        String server = "s\n".repeat(100_000);

        Decision decision = engine.decide(new ToolCall(Side.CLIENT, server, "plain", Map.of(), null, null, null));

        assertThat(decision).isEqualTo(Expected.allowed("/tools/plain"));
    }

    // --- a store that fails ---

    /** A rate-limit store that cannot be reached: every acquire throws. */
    private static final class FailingStore implements RateLimitStore {
        final RuntimeException failure = new IllegalStateException("rate-limit store unreachable");
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public Admission tryAcquire(Limit[] limits, String[] keys, long nowMillis) {
            calls.incrementAndGet();
            throw failure;
        }
    }

    @Test
    void answersAFailingRateLimitStoreAsUnavailableOnlyWhenALimitIsConsulted() {
        FailingStore store = new FailingStore();
        PolicyEngine engine = PolicyEngine.of(Policies.parse("""
                version: "1"
                tools:
                  limited: {limits: [{window: minute, max: 5}]}
                  limited_but_required: {require: [{path: a, op: exists}], limits: [{window: minute, max: 5}]}
                  watched: {mode: monitor, limits: [{window: minute, max: 5}]}
                  free: {}
                """), clock, EngineOptions.withStore(store));
        String reason = "rate limit store unavailable: IllegalStateException: rate-limit store unreachable";

        assertThat(engine.decide(call("limited", Map.of()))).isEqualTo(Expected.denied("/tools/limited/limits/0", reason));
        assertThat(engine.decide(call("watched", Map.of()))).as("monitor mode lets it through, saying what enforcing would do")
                .isEqualTo(new Decision(Effect.ALLOW, Effect.DENY, "/tools/watched/limits/0", reason, 0));
        assertThat(store.calls).hasValue(2);
        assertThat(engine.decide(call("limited_but_required", Map.of())).rule())
                .as("a check before the limits denies without the store").isEqualTo("/tools/limited_but_required/require/0");
        assertThat(engine.decide(call("free", Map.of()))).isEqualTo(Expected.allowed("/tools/free"));
        assertThat(engine.decide(call("other", Map.of())).rule()).isEqualTo(Decision.DEFAULT_RULE);
        assertThat(store.calls).hasValue(2);
    }

    private static Decision decide(PolicyEngine engine, String tool, Map<String, ?> arguments) {
        return engine.decide(call(tool, arguments));
    }

    private static ToolCall call(String tool, Map<String, ?> arguments) {
        return new ToolCall(Side.SERVER, null, tool, arguments, "s1", "alice", null);
    }

    /** Expected decisions, built as the engine builds them in enforce mode. */
    private static final class Expected {
        static Decision allowed(String rule) {
            return new Decision(Effect.ALLOW, Effect.ALLOW, rule, null, 0);
        }

        static Decision denied(String rule, String reason) {
            return new Decision(Effect.DENY, Effect.DENY, rule, reason, 0);
        }
    }

    /** Reads an audit record back with Jackson's streaming parser: it must be one valid JSON object. */
    private static final class DecisionRecordsJson {
        static Map<String, Object> parse(String json) {
            com.fasterxml.jackson.core.JsonFactory factory = com.fasterxml.jackson.core.JsonFactory.builder()
                    .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                            .maxNestingDepth(Integer.MAX_VALUE).maxStringLength(Integer.MAX_VALUE).build())
                    .build();
            try (com.fasterxml.jackson.core.JsonParser parser = factory.createParser(json)) {
                Map<String, Object> fields = new LinkedHashMap<>();
                assertThat(parser.nextToken()).isEqualTo(com.fasterxml.jackson.core.JsonToken.START_OBJECT);
                while (parser.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    com.fasterxml.jackson.core.JsonToken value = parser.nextToken();
                    if (value.isStructStart()) {
                        parser.skipChildren();
                        fields.put(name, new ArrayList<>());
                    } else {
                        fields.put(name, value == com.fasterxml.jackson.core.JsonToken.VALUE_NULL ? null : parser.getText());
                    }
                }
                assertThat(parser.nextToken()).as("nothing after the object").isNull();
                return fields;
            } catch (java.io.IOException e) {
                throw new AssertionError("not valid JSON: " + e.getMessage(), e);
            }
        }
    }
}
