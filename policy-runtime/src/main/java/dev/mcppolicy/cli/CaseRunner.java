package dev.mcppolicy.cli;

import dev.mcppolicy.engine.Caller;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.policy.Durations;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyError;
import dev.mcppolicy.policy.PolicyParser;
import dev.mcppolicy.policy.internal.Node;
import dev.mcppolicy.policy.internal.TreeReader;
import dev.mcppolicy.time.ManualClock;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code test POLICY CASES}: table-driven policy tests, like {@code opa test}. A cases file (JSON or
 * YAML) is {@code {"cases": [...]}} or a bare array. A case is one call with an expectation, or a
 * sequence of {@code steps} that share rate-limit state on a virtual clock; step fields default to
 * the case's own. Each case starts from fresh counters at 2026-01-01T00:00:00Z.
 *
 * <pre>
 * - name: ls is allowed
 *   tool: run_command
 *   args: {command: "ls -la"}
 *   expect: ALLOW
 * - name: the 11th call in a minute is refused
 *   tool: run_command
 *   client: alice
 *   args: {command: ls}
 *   steps:
 *     - {repeat: 10, expect: ALLOW}
 *     - {expect: {decision: DENY, rule: /tools/run_command/limits/0}}
 *     - {at: 61s, expect: ALLOW}
 * - name: system files are off limits
 *   resource: file:///public/%2e%2e/etc/passwd
 *   expect: {decision: DENY, rule: /resources/file:~1~1~1etc~1*}
 * - prompt: summarize
 *   args: {style: short}
 *   expect: ALLOW
 * </pre>
 * A case names one of {@code tool}, {@code resource} (a URI) and {@code prompt} (SPEC §12).
 */
final class CaseRunner {
    static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
    private static final Set<String> CALL_KEYS = Set.of("tool", "resource", "prompt", "args", "client", "session", "server", "caller", "at",
            "repeat", "expect");
    private static final Set<String> CASE_KEYS = Set.of("name", "tool", "resource", "prompt", "args", "client", "session", "server", "caller",
            "at", "repeat", "expect", "steps");
    private static final Set<String> EXPECT_KEYS = Set.of("decision", "rule", "would", "reason", "retry_after", "arg");

    private final PrintStream out;
    private final PrintStream err;

    CaseRunner(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int run(String[] args) {
        if (args.length != 2) {
            throw new PolicyCli.UsageException("test takes two arguments: the policy file and the cases file");
        }
        Policy policy = new PolicyCli(out, err).load(args[0]);
        if (policy == null) {
            return PolicyCli.USAGE;
        }
        List<Object> cases;
        try {
            cases = readCases(Path.of(args[1]));
        } catch (CaseException e) {
            err.println(args[1] + ": " + e.getMessage());
            return PolicyCli.USAGE;
        }
        int failures = 0;
        for (int i = 0; i < cases.size(); i++) {
            try {
                String failure = runCase(policy, cases.get(i), "/cases/" + i);
                String name = name(cases.get(i), i);
                if (failure == null) {
                    out.println("PASS " + name);
                } else {
                    failures++;
                    out.println("FAIL " + name);
                    out.println("     " + failure);
                }
            } catch (CaseException e) {
                err.println(args[1] + ": " + e.getMessage());
                return PolicyCli.USAGE;
            }
        }
        out.println(cases.size() + (cases.size() == 1 ? " case, " : " cases, ") + failures + " failed");
        return Math.min(failures, 125);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> readCases(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CaseException("cannot read the file: " + e);
        }
        List<PolicyError> errors = new ArrayList<>();
        PolicyParser.Format format = PolicyParser.formatOf(file.toString());
        TreeReader.Format syntax = format == null ? TreeReader.sniff(text)
                : format == PolicyParser.Format.JSON ? TreeReader.Format.JSON : TreeReader.Format.YAML;
        Node root = new TreeReader(errors).read(text, syntax);
        if (!errors.isEmpty()) {
            throw new CaseException(errors.get(0).toString());
        }
        Object plain = root.toPlain();
        if (plain instanceof Map && ((Map<String, Object>) plain).get("cases") instanceof List
                && ((Map<String, Object>) plain).size() == 1) {
            return (List<Object>) ((Map<String, Object>) plain).get("cases");
        }
        if (plain instanceof List) {
            return (List<Object>) plain;
        }
        throw new CaseException("expected {\"cases\": [...]} or an array of cases");
    }

    private static String name(Object testCase, int index) {
        Object name = testCase instanceof Map ? ((Map<?, ?>) testCase).get("name") : null;
        return name == null ? "case " + index : String.valueOf(name);
    }

    @SuppressWarnings("unchecked")
    private static String runCase(Policy policy, Object testCase, String at) {
        Map<String, Object> fields = object(testCase, at, CASE_KEYS);
        ManualClock clock = new ManualClock(EPOCH);
        PolicyEngine engine = PolicyEngine.of(policy, clock);
        List<Map<String, Object>> steps = new ArrayList<>();
        if (fields.containsKey("steps")) {
            if (!(fields.get("steps") instanceof List)) {
                throw new CaseException(at + "/steps: expected an array of steps");
            }
            Map<String, Object> defaults = new LinkedHashMap<>(fields);
            defaults.remove("steps");
            defaults.remove("name");
            defaults.remove("at");
            defaults.remove("repeat");
            defaults.remove("expect");
            List<Object> raw = (List<Object>) fields.get("steps");
            for (int i = 0; i < raw.size(); i++) {
                Map<String, Object> step = new LinkedHashMap<>(defaults);
                step.putAll(object(raw.get(i), at + "/steps/" + i, CALL_KEYS));
                steps.add(step);
            }
        } else {
            Map<String, Object> step = new LinkedHashMap<>(fields);
            step.remove("name");
            steps.add(step);
        }
        Duration elapsed = Duration.ZERO;
        for (int i = 0; i < steps.size(); i++) {
            Map<String, Object> step = steps.get(i);
            String stepAt = fields.containsKey("steps") ? at + "/steps/" + i : at;
            if (step.containsKey("at")) {
                Duration offset = duration(step.get("at"), stepAt + "/at");
                if (offset.compareTo(elapsed) < 0) {
                    throw new CaseException(stepAt + "/at: time cannot go backwards (" + Durations.format(offset)
                            + " is before " + Durations.format(elapsed) + ")");
                }
                clock.advance(offset.minus(elapsed));
                elapsed = offset;
            }
            ToolCall call = call(step, stepAt);
            Expectation expected = Expectation.of(step.get("expect"), stepAt + "/expect");
            int repeat = repeat(step.get("repeat"), stepAt + "/repeat");
            for (int r = 1; r <= repeat; r++) {
                Decision decision = engine.decide(call);
                String mismatch = expected.mismatch(decision);
                if (mismatch != null) {
                    String where = steps.size() > 1 || repeat > 1
                            ? "step " + i + (repeat > 1 ? " (call " + r + " of " + repeat + ")" : "") + " at +" + Durations.format(elapsed) + ": "
                            : "";
                    return where + mismatch;
                }
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static ToolCall call(Map<String, Object> step, String at) {
        Kind kind = null;
        String name = null;
        for (Kind candidate : Kind.values()) {
            Object value = step.get(candidate.word());
            if (value == null) {
                continue;
            }
            if (kind != null) {
                throw new CaseException(at + ": names both '" + kind.word() + "' and '" + candidate.word() + "'; a call is one of them");
            }
            if (!(value instanceof String)) {
                throw new CaseException(at + "/" + candidate.word() + ": expected a string");
            }
            kind = candidate;
            name = (String) value;
        }
        if (kind == null) {
            throw new CaseException(at + ": missing 'tool' (a tool name), 'resource' (a URI) or 'prompt' (a prompt name)");
        }
        Object args = step.getOrDefault("args", Map.of());
        if (!(args instanceof Map)) {
            throw new CaseException(at + "/args: expected an object of arguments");
        }
        if (kind == Kind.RESOURCE && step.containsKey("args")) {
            throw new CaseException(at + "/args: a resource read has no arguments (its conditions test the path \"uri\")");
        }
        String server = text(step.get("server"), at + "/server");
        Side side = server == null ? Side.SERVER : Side.CLIENT;
        String session = text(step.get("session"), at + "/session");
        String client = text(step.get("client"), at + "/client");
        Caller caller = Caller.unverified();
        if (step.containsKey("caller")) {
            try {
                caller = CallerArgument.parse(step.get("caller"), at + "/caller");
            } catch (IllegalArgumentException e) {
                throw new CaseException(e.getMessage());
            }
        }
        if (kind == Kind.RESOURCE) {
            return ToolCall.resource(side, server, name, session, client).withCaller(caller);
        }
        return new ToolCall(side, server, name, (Map<String, Object>) args, session, client, null, kind, caller);
    }

    private static String text(Object value, String at) {
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw new CaseException(at + ": expected a string");
    }

    private static int repeat(Object value, String at) {
        if (value == null) {
            return 1;
        }
        if (value instanceof Integer && (Integer) value >= 1) {
            return (Integer) value;
        }
        throw new CaseException(at + ": expected a whole number, at least 1");
    }

    private static Duration duration(Object value, String at) {
        if (value instanceof Integer && (Integer) value >= 0) {
            return Duration.ofSeconds((Integer) value);
        }
        Duration parsed = value instanceof String ? Durations.parse((String) value) : null;
        if (parsed == null && !"0".equals(value) && !"0s".equals(value)) {
            throw new CaseException(at + ": expected an offset from the start like 30s, 5m or a number of seconds");
        }
        return parsed == null ? Duration.ZERO : parsed;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value, String at, Set<String> keys) {
        if (!(value instanceof Map)) {
            throw new CaseException(at + ": expected an object");
        }
        for (String key : ((Map<String, Object>) value).keySet()) {
            if (!keys.contains(key)) {
                throw new CaseException(at + "/" + key + ": unknown key; expected one of " + String.join(", ", keys.stream().sorted().toList()));
            }
        }
        return (Map<String, Object>) value;
    }

    /** What a case expects of a decision; only the fields it names are checked. */
    private record Expectation(Effect decision, String rule, Effect would, String reason, Long retryAfter, String argument) {
        static Expectation of(Object value, String at) {
            if (value instanceof String) {
                return new Expectation(effect(value, at), null, null, null, null, null);
            }
            if (value == null) {
                throw new CaseException(at + ": missing 'expect' (ALLOW, DENY, REQUIRE_APPROVAL or an object)");
            }
            Map<String, Object> fields = object(value, at, EXPECT_KEYS);
            if (!fields.containsKey("decision")) {
                throw new CaseException(at + ": missing 'decision'");
            }
            Object retry = fields.get("retry_after");
            if (retry != null && !(retry instanceof Number)) {
                throw new CaseException(at + "/retry_after: expected a number of seconds");
            }
            return new Expectation(effect(fields.get("decision"), at + "/decision"), text(fields.get("rule"), at + "/rule"),
                    fields.containsKey("would") ? effect(fields.get("would"), at + "/would") : null,
                    text(fields.get("reason"), at + "/reason"), retry == null ? null : ((Number) retry).longValue(),
                    text(fields.get("arg"), at + "/arg"));
        }

        private static Effect effect(Object value, String at) {
            if (value instanceof String) {
                try {
                    return Effect.valueOf(((String) value).toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    // reported below
                }
            }
            throw new CaseException(at + ": expected ALLOW, DENY or REQUIRE_APPROVAL");
        }

        String mismatch(Decision actual) {
            boolean ok = actual.effect() == decision
                    && (rule == null || rule.equals(actual.rule()))
                    && (would == null || would == actual.wouldBe())
                    && (reason == null || actual.reason() != null && actual.reason().contains(reason))
                    && (retryAfter == null || retryAfter == actual.retryAfterSeconds())
                    && (argument == null || argument.equals(actual.argument()));
            if (ok) {
                return null;
            }
            return "expected " + describe(decision, rule, would, reason, retryAfter, argument) + ", got "
                    + describe(actual.effect(), actual.rule(), actual.isMonitored() ? actual.wouldBe() : null,
                    actual.reason(), actual.retryAfterSeconds() > 0 ? actual.retryAfterSeconds() : null, actual.argument());
        }

        private static String describe(Effect effect, String rule, Effect would, String reason, Long retryAfter, String argument) {
            StringBuilder text = new StringBuilder(effect.name());
            if (would != null) {
                text.append(" (would ").append(would).append(')');
            }
            if (rule != null) {
                text.append(" by ").append(rule);
            }
            if (argument != null) {
                text.append(" at ").append(argument);
            }
            if (reason != null) {
                text.append(" reason \"").append(reason).append('"');
            }
            if (retryAfter != null) {
                text.append(" retry after ").append(retryAfter).append('s');
            }
            return text.toString();
        }
    }

    /** A cases file that cannot be run. */
    static final class CaseException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CaseException(String message) {
            super(message, null, false, false);
        }
    }
}
