package dev.mcppolicy.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.mcppolicy.cli.PolicyCli;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.policy.internal.Node;
import dev.mcppolicy.policy.internal.TreeReader;
import dev.mcppolicy.time.ManualClock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded mutational fuzzing of the policy parser (issue 8, item 5). Each case starts from a valid policy,
 * applies random structural mutations (keys deleted, added, renamed and swapped, values of other types,
 * huge and negative numbers, deep nesting, long strings, bad regexes, glob ties) and text mutations
 * (truncation, inserted bytes and snippets, duplicated lines, JSON turned YAML-ish), and writes the
 * result to a file. The parser must then either throw {@link PolicyException} whose every error has a
 * JSON Pointer and a message, or accept the file; an accepted policy must decide a handful of calls
 * exactly as {@code explain} prints them.
 *
 * <p>{@code -Dfuzz.cases=100000} runs more cases (default 3,000), {@code -Dfuzz.seed=N} another
 * sequence, and {@code -Dfuzz.case=I} only case {@code I} of the sequence, to reproduce a failure.
 */
class PolicyFuzzTest {
    private static final long SEED = Long.getLong("fuzz.seed", 20_260_101L);
    private static final int CASES = Integer.getInteger("fuzz.cases", 3_000);
    private static final int ONLY_CASE = Integer.getInteger("fuzz.case", -1);
    private static final String NL = System.lineSeparator();
    private static final Pattern PLAIN_YAML = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    @TempDir
    Path dir;

    @Test
    void mutatedPoliciesFailWithPointedErrorsOrDecideAsExplainPrints() {
        List<Seed> seeds = seeds();
        AtomicReference<String> current = new AtomicReference<>("(before the first case)");
        Duration guard = Duration.ofSeconds(Math.max(90, CASES / 25));
        int[] counts = assertTimeoutPreemptively(guard, () -> run(seeds, current),
                () -> "a case did not finish in " + guard + " (a hang?): " + current.get());
        System.out.printf("PolicyFuzzTest: seed %d, %d cases: %d accepted (%d calls compared with explain), %d rejected%n",
                SEED, counts[0] + counts[1], counts[0], counts[2], counts[1]);
        if (ONLY_CASE < 0) {
            assertThat(counts[0]).as("accepted mutants: the fuzzer must reach the engine").isGreaterThan(CASES / 5);
            assertThat(counts[1]).as("rejected mutants: the fuzzer must reach the errors").isGreaterThan(CASES / 4);
        }
    }

    private int[] run(List<Seed> seeds, AtomicReference<String> current) throws IOException {
        int[] counts = new int[3];
        for (int i = Math.max(0, ONLY_CASE); i < (ONLY_CASE >= 0 ? ONLY_CASE + 1 : CASES); i++) {
            Random random = new Random(SEED * 1_000_003L + i);
            Mutant mutant = new Mutator(random, seeds).mutant();
            String context = "fuzz case " + i + " (reproduce: -Dfuzz.seed=" + SEED + " -Dfuzz.case=" + i + "), file "
                    + mutant.fileName + ", from " + mutant.seed + ", mutations " + mutant.steps + NL
                    + "--- mutated text ---" + NL + abbreviate(new String(mutant.bytes, StandardCharsets.UTF_8)) + NL + "---";
            current.set(context);
            Path file = dir.resolve(mutant.fileName);
            Files.write(file, mutant.bytes);
            Policy policy = parse(file, context);
            if (mutant.text != null && i % 3 == 0) {
                assertSameOutcomeFromText(mutant, policy, context);
            }
            if (policy == null) {
                counts[1]++;
                continue;
            }
            counts[0]++;
            counts[2] += compareWithExplain(policy, file, random, context);
        }
        return counts;
    }

    private static Policy parse(Path file, String context) {
        try {
            return PolicyParser.parse(file);
        } catch (PolicyException e) {
            assertErrorsArePointed(e, context);
            return null;
        } catch (Throwable t) {
            throw new AssertionError("the parser threw " + t + " instead of a PolicyException; " + context, t);
        }
    }

    private static void assertErrorsArePointed(PolicyException e, String context) {
        assertThat(e.errors()).as(context).isNotEmpty();
        assertThat(e.getMessage()).as(context).isNotBlank();
        for (PolicyError error : e.errors()) {
            assertThat(error.pointer()).as("pointer of %s; %s", error, context).isNotNull()
                    .matches(pointer -> pointer.isEmpty() || pointer.startsWith("/"), "a JSON Pointer");
            assertThat(error.message()).as("message of %s; %s", error, context).isNotBlank();
            assertThat(error.line()).as(context).isNotNegative();
            assertThat(error.column()).as(context).isNotNegative();
        }
    }

    /** The text API must agree with the file API on the same bytes. */
    private static void assertSameOutcomeFromText(Mutant mutant, Policy fromFile, String context) {
        try {
            Policy fromText = PolicyParser.parse(mutant.text, PolicyParser.formatOf(mutant.fileName), mutant.fileName);
            assertThat(fromFile).as("the file was rejected but the same text accepted; " + context).isNotNull();
            assertThat(fromText.sha256()).as(context).isEqualTo(fromFile.sha256());
        } catch (PolicyException e) {
            assertThat(fromFile).as("the file was accepted but the same text rejected with " + e.errors() + "; " + context).isNull();
        } catch (Throwable t) {
            throw new AssertionError("the parser threw " + t + " on text; " + context, t);
        }
    }

    /** Decides a few calls with the engine and with {@code explain}; returns how many were compared. */
    private static int compareWithExplain(Policy policy, Path file, Random random, String context) {
        List<String[]> calls = calls(policy, random);
        List<Map<String, Object>> argumentSets = argumentSets(policy, random);
        int compared = 0;
        for (String[] call : calls) {
            String argsJson = CanonicalJson.write(argumentSets.get(random.nextInt(argumentSets.size())));
            List<PolicyError> errors = new ArrayList<>();
            Node parsed = new TreeReader(errors).read(argsJson, TreeReader.Format.JSON);
            if (!errors.isEmpty() || !parsed.is(Node.Kind.OBJECT)) {
                continue;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> arguments = (Map<String, Object>) parsed.toPlain();
            String tool = call[0];
            String server = call[1];
            String where = "tool " + CanonicalJson.write(tool) + (server == null ? "" : " on server " + CanonicalJson.write(server))
                    + " with arguments " + abbreviate(argsJson) + "; " + context;
            Decision decision;
            try {
                PolicyEngine engine = PolicyEngine.of(policy, new ManualClock(Instant.parse("2026-01-01T00:00:00Z")));
                decision = engine.decide(new ToolCall(server == null ? Side.SERVER : Side.CLIENT, server, tool, arguments,
                        "s1", "c1", null));
                engine.isListed(server == null ? Side.SERVER : Side.CLIENT, server, tool);
            } catch (Throwable t) {
                throw new AssertionError("the engine threw " + t + " for " + where, t);
            }
            List<String> args = new ArrayList<>(List.of("explain", file.toString(), "--tool", tool, "--args", argsJson,
                    "--session", "s1", "--client", "c1"));
            if (server != null) {
                args.add("--server");
                args.add(server);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit;
            try {
                exit = PolicyCli.run(args.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
            } catch (Throwable t) {
                throw new AssertionError("explain threw " + t + " for " + where, t);
            }
            String printed = out.toString(StandardCharsets.UTF_8);
            assertThat(exit).as("explain's exit code (stderr: %s) for %s", err.toString(StandardCharsets.UTF_8), where).isZero();
            String expected = "decision: " + decision.effect()
                    + (decision.isMonitored() ? " (monitor mode; would be " + decision.wouldBe() + ")" : "") + NL
                    + "rule:     " + decision.rule() + NL;
            assertThat(printed).as("explain's decision and rule for " + where).startsWith(printable(expected));
            if (decision.reason() != null) {
                assertThat(printed).as("explain's reason for " + where).contains(printable(NL + "reason:   " + decision.reason() + NL));
            }
            if (decision.wouldBe() == Effect.DENY) {
                assertThat(printed).as("explain's caller message for " + where)
                        .contains(printable(NL + "caller:   " + decision.callerMessage(tool) + NL));
            }
            compared++;
        }
        return compared;
    }

    /** Text as it comes out of a UTF-8 print stream: a lone surrogate (in a rule pointer, say) prints as '?'. */
    private static String printable(String text) {
        return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    /** Tool names the policy mentions (globs made concrete), an unknown one, and the servers' tools. */
    private static List<String[]> calls(Policy policy, Random random) {
        List<String> top = new ArrayList<>();
        policy.tools().keySet().forEach(key -> top.add(concrete(key)));
        policy.hide().forEach(name -> top.add(concrete(name)));
        top.add("unknown_tool_zz");
        List<String[]> calls = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            calls.add(new String[] {top.get(random.nextInt(top.size())), null});
        }
        calls.add(new String[] {"unknown_tool_zz", null});
        for (Map.Entry<String, ServerPolicy> server : policy.servers().entrySet()) {
            List<String> names = new ArrayList<>(top);
            server.getValue().tools().keySet().forEach(key -> names.add(concrete(key)));
            server.getValue().hide().forEach(name -> names.add(concrete(name)));
            calls.add(new String[] {names.get(random.nextInt(names.size())), server.getKey()});
            if (calls.size() >= 5) {
                break;
            }
        }
        return calls;
    }

    private static String concrete(String glob) {
        return glob.replace("*", "x").replace('?', 'y');
    }

    /** {}, a few ordinary argument maps, and maps that put each condition's own value at its path. */
    private static List<Map<String, Object>> argumentSets(Policy policy, Random random) {
        List<Map<String, Object>> sets = new ArrayList<>();
        sets.add(Map.of());
        sets.add(Map.of("command", "ls -la"));
        sets.add(Map.of("command", "ls && rm -rf /"));
        sets.add(Map.of("amount", 50, "to", "alice"));
        List<ToolRule> rules = new ArrayList<>(policy.tools().values());
        policy.servers().values().forEach(server -> rules.addAll(server.tools().values()));
        for (ToolRule rule : rules) {
            List<Condition> conditions = new ArrayList<>(rule.require());
            conditions.addAll(rule.denyIf());
            for (Condition condition : conditions) {
                if (random.nextInt(3) == 0) {
                    continue;
                }
                Map<String, Object> arguments = new LinkedHashMap<>();
                String path = condition.path().startsWith("args.") ? condition.path().substring(5) : condition.path();
                String[] keys = path.split("\\.", -1);
                Map<String, Object> at = arguments;
                for (int k = 0; k < keys.length - 1; k++) {
                    Map<String, Object> inner = new LinkedHashMap<>();
                    at.put(keys[k], inner);
                    at = inner;
                }
                Object value = condition.value() instanceof List<?> list && !list.isEmpty() ? list.get(0) : condition.value();
                at.put(keys[keys.length - 1], value);
                sets.add(arguments);
            }
        }
        return sets;
    }

    private static String abbreviate(String text) {
        return text.length() <= 6_000 ? text : text.substring(0, 6_000) + "... (" + text.length() + " chars in all)";
    }

    // --- seeds ---

    /** A valid policy to mutate: its text, and its tree as plain Java values. */
    private record Seed(String name, String text, Object tree) {
    }

    private static List<Seed> seeds() {
        List<Seed> seeds = new ArrayList<>();
        seeds.add(seed("spec-example.json", resource("spec-example.json")));
        seeds.add(seed("spec-example.yaml", resource("spec-example.yaml")));
        seeds.add(seed("every-key.json", EVERY_KEY_JSON));
        seeds.add(seed("every-key.yaml", EVERY_KEY_YAML));
        seeds.add(seed("small.yaml", SMALL_YAML));
        return seeds;
    }

    private static Seed seed(String name, String text) {
        try {
            PolicyParser.parse(text, PolicyParser.formatOf(name), name);
        } catch (PolicyException e) {
            throw new AssertionError("seed " + name + " must be valid: " + e.getMessage(), e);
        }
        List<PolicyError> errors = new ArrayList<>();
        Node root = new TreeReader(errors).read(text, PolicyParser.formatOf(name) == PolicyParser.Format.JSON
                ? TreeReader.Format.JSON : TreeReader.Format.YAML);
        return new Seed(name, text, root.toPlain());
    }

    private static String resource(String name) {
        try (InputStream in = PolicyFuzzTest.class.getResourceAsStream("/policies/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static final String EVERY_KEY_JSON = """
            {
              "version": "1",
              "default": "allow",
              "mode": "enforce",
              "hide": ["debug_*", "secret_tool"],
              "all_tools": {"limits": [{"counter": "all", "window": "1m", "max": 100, "scope": "global", "algorithm": "fixed"}]},
              "tools": {
                "transfer": {
                  "action": "allow",
                  "reason": "transfers are capped",
                  "require": [{"path": "amount", "op": "lte", "value": 100}, {"path": "to", "op": "in", "value": ["alice", "bob"]}],
                  "deny_if": [{"path": "memo", "op": "regex", "value": "(?i)urgent"}, {"path": "tags", "op": "contains", "value": "blocked"}],
                  "limits": [{"counter": "transfers", "window": 60, "max": 5, "scope": "client", "algorithm": "token_bucket"}],
                  "arguments": {
                    "type": "object",
                    "properties": {
                      "amount": {"type": "number", "minimum": 0, "maximum": 1000},
                      "to": {"type": "string", "maxLength": 64, "pattern": "^[a-z]+$"},
                      "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5}
                    },
                    "required": ["amount", "to"],
                    "additionalProperties": true
                  },
                  "mode": "monitor"
                },
                "echo": {"arguments": "input_schema"},
                "approve_me": {"action": "require_approval", "approval": {"timeout": "10m"}},
                "ops_*": {"action": "deny", "reason": "ops tools are off"},
                "op?": {},
                "checks": {
                  "require": [
                    {"path": "a", "op": "eq", "value": 1},
                    {"path": "b", "op": "neq", "value": "x"},
                    {"path": "c", "op": "not_in", "value": [1, 2]},
                    {"path": "d", "op": "lt", "value": 10},
                    {"path": "e", "op": "gt", "value": -1},
                    {"path": "f", "op": "gte", "value": 0},
                    {"path": "g", "op": "exists"},
                    {"path": "h", "op": "exists", "value": false},
                    {"path": "args.i.0", "op": "max_length", "value": 8}
                  ]
                }
              },
              "servers": {
                "github": {"default": "deny", "hide": ["delete_repo"], "tools": {"get_issue": {}, "create_*": {"action": "deny"}}}
              }
            }
            """;

    private static final String EVERY_KEY_YAML = """
            version: 1
            default: deny
            mode: monitor
            hide: [hidden_one, "tmp_?"]
            all_tools:
              limits:
                - {window: second, max: 50, algorithm: sliding}
            tools:
              read: ~
              run_command:
                reason: read-only commands only
                require:
                  - {path: command, op: regex, value: "^(ls|cat|echo)( .*)?$"}
                deny_if:
                  - {path: command, op: contains, value: "rm -rf"}
                  - {path: command, op: max_length, value: 200}
                limits:
                  - {counter: rc, window: 5m, max: 10, scope: session}
                mode: enforce
              write_file:
                arguments:
                  type: object
                  properties:
                    path: {type: string, minLength: 1}
                    content: {type: [string, "null"], maxLength: 1000}
                    mode: {enum: [overwrite, append], default: overwrite}
                  required: [path]
                  additionalProperties: false
              pay:
                action: require_approval
                require:
                  - {path: amount, op: lte, value: 10.5}
                  - {path: currency, op: eq, value: EUR}
              "delete_*": {action: deny}
              "del*": {action: allow}
            servers:
              fs:
                default: allow
                tools:
                  rm: {action: deny, reason: never}
              empty: {}
            """;

    private static final String SMALL_YAML = """
            version: "1"
            tools:
              t: {}
            """;

    // --- mutation ---

    /** A mutated policy file. {@code text} is set when the bytes are that text in UTF-8. */
    private record Mutant(String seed, String fileName, byte[] bytes, String text, List<String> steps) {
    }

    /** Marks text written into a document as it is (deep nesting, out-of-range number literals). */
    private record Raw(String text) {
    }

    private static final List<String> KEYS = List.of(
            "version", "default", "mode", "hide", "all_tools", "tools", "servers", "action", "reason", "require",
            "deny_if", "limits", "arguments", "approval", "counter", "window", "max", "scope", "algorithm", "path",
            "op", "value", "timeout", "type", "properties", "required", "enum", "const", "pattern", "minimum",
            "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "items", "minItems",
            "maxItems", "additionalProperties", "title", "$schema", "actoin", "limit", "Tools", "", " ", "a/b~c",
            "run_command", "delete_*", "delete_?", "*", "?", "x\ny", "\u202eevil", "\uD800", "\uD83D\uDE00");

    private static final List<String> WORDS = List.of(
            "1", "2", "allow", "deny", "require_approval", "enforce", "monitor", "global", "session", "client", "grant",
            "sliding", "fixed", "token_bucket", "second", "minute", "hour", "day", "10m", "30s", "1h", "1d", "0s", "-1",
            "60", "99999999999999d", "9223372036854775807s", "input_schema", "", " ", "*", "?", "a*", "a?", "delete_*",
            "delete_?", "run_command", "read_file", "command", "args.command", "options.0.name", ".a", "a..b", "args",
            "args.", "eq", "neq", "in", "not_in", "lt", "lte", "gt", "gte", "regex", "contains", "exists", "max_length",
            "^(ls|cat)( .*)?$", "(", "[a-", "a{1001}", "\\", "(?P<n>x)", "\\pL", "(?i)x", "x**", "string", "number",
            "integer", "object", "array", "boolean", "null", "yes", "no", "on", "~", "\u202e", "a\nb", "\u0000", "\uD800",
            "\uDC00", "\uD83D\uDE00", "\u00fcn\u00ef", "\t", "\"", "'", "#", "&a", "*a", "!!binary", "- x", "a: b",
            "{}", "[]", "\u2028", "\uFEFF");

    private static final List<Object> NUMBERS = List.of(
            0, 1, -1, 2, 10, 600, 1.5, -0.0, 0.1, 2_147_483_647, 2_147_483_648L, Long.MAX_VALUE,
            new BigInteger("9223372036854775808"), 1e300, -1e300, new Raw("1e400"), new Raw("-1e400"),
            new Raw("1e400000000"), new Raw("1.0e+400000000"), new Raw("1e-400"), new Raw("-1e-400000000"),
            new Raw("123456789012345678901234567890"), new Raw("1" + "0".repeat(1_100)), new Raw("0.1e1"),
            new Raw("NaN"), new Raw("Infinity"), new Raw("-0"), new Raw(".inf"), new Raw("0x10"), new Raw("1_000"),
            new Raw("1e2"), new Raw("60.0"));

    private static final List<String> SNIPPETS = List.of(
            "{", "}", "[", "]", ",", ":", "\"", "'", "\n", "  ", "\t", "#", "- ", "&a ", "*a", "!!binary ", "!!str ",
            "!!int ", "!custom ", "? ", "---\n", "...\n", "%YAML 1.2\n", "<<: ", "|\n", ">\n", "\\", "\u0000", "\uFEFF",
            "\u202e", "\uD800", "\uD83D\uDE00", "null", "1e400", "tools:", "\"tools\":", "version: 2", "{{", "]]",
            ": :", "\r\n", "\r", "\u2028", "\"\\ud800\"", "\"\\u0000\"", "@", "`", "%", "!", "=", "x: &anchor 1\ny: *anchor\n");

    /** Applies seeded mutations to a seed; every choice comes from {@code random}. */
    private static final class Mutator {
        private final Random random;
        private final List<Seed> seeds;
        private final List<String> steps = new ArrayList<>();

        Mutator(Random random, List<Seed> seeds) {
            this.random = random;
            this.seeds = seeds;
        }

        Mutant mutant() {
            Seed seed = seeds.get(random.nextInt(seeds.size()));
            String text;
            boolean json;
            int path = random.nextInt(10);
            if (path < 3) {
                Object tree = copy(seed.tree());
                int count = 1 + random.nextInt(3);
                for (int i = 0; i < count; i++) {
                    gentle(tree);
                }
                json = random.nextBoolean();
                text = json ? renderJson(tree) : renderYaml(tree);
                steps.add(json ? "render JSON" : "render YAML");
                String fileName = json ? "policy.json" : "policy.yaml";
                steps.add("as " + fileName);
                return new Mutant(seed.name(), fileName, text.getBytes(StandardCharsets.UTF_8), text, steps);
            }
            if (path < 8) {
                Object tree = copy(seed.tree());
                int count = 1 + random.nextInt(4);
                for (int i = 0; i < count; i++) {
                    tree = mutateTree(tree);
                }
                json = random.nextBoolean();
                text = json ? renderJson(tree) : renderYaml(tree);
                steps.add(json ? "render JSON" : "render YAML");
                if (random.nextInt(4) == 0) {
                    text = mutateText(text);
                }
            } else {
                json = seed.name().endsWith(".json");
                text = seed.text();
                int count = 1 + random.nextInt(3);
                for (int i = 0; i < count; i++) {
                    text = mutateText(text);
                }
            }
            String fileName = fileName(json);
            if (random.nextInt(6) == 0) {
                byte[] bytes = mutateBytes(text.getBytes(StandardCharsets.UTF_8));
                return new Mutant(seed.name(), fileName, bytes, null, steps);
            }
            return new Mutant(seed.name(), fileName, text.getBytes(StandardCharsets.UTF_8), text, steps);
        }

        private String fileName(boolean json) {
            int pick = random.nextInt(12);
            String name = pick == 0 ? "policy.txt" : pick == 1 ? "policy" : pick == 2 ? (json ? "policy.yaml" : "policy.json")
                    : json ? "policy.json" : random.nextBoolean() ? "policy.yaml" : "policy.yml";
            steps.add("as " + name);
            return name;
        }

        // --- tree mutations ---

        /** A mutation that mostly keeps the policy valid, so that the engine and explain get to decide it. */
        private void gentle(Object tree) {
            Map<String, Object> root = map(tree);
            Map<String, Object> tools = toolsOf(tree);
            switch (random.nextInt(7)) {
                case 0: {
                    String name = pick("tool_a", "tool_b", "run_*", "x?", "delete_" + random.nextInt(3), word());
                    Map<String, Object> rule = new LinkedHashMap<>();
                    if (random.nextBoolean()) {
                        rule.put("action", pick("allow", "deny", "require_approval"));
                    }
                    if (random.nextBoolean()) {
                        rule.put("reason", pick("because", "no \"quotes\" here", "two words"));
                    }
                    if (random.nextBoolean()) {
                        rule.put(pick("require", "deny_if"), copy(List.of(validCondition())));
                    }
                    if (random.nextInt(3) == 0) {
                        rule.put("limits", copy(List.of(Map.of("window", pick("minute", "30s", 60), "max", 1 + random.nextInt(5),
                                "scope", pick("global", "session", "client", "grant"), "algorithm", pick("sliding", "fixed", "token_bucket")))));
                    }
                    if (random.nextInt(4) == 0) {
                        rule.put("mode", pick("enforce", "monitor"));
                    }
                    tools.put(name, rule);
                    steps.add("add valid rule " + show(name) + " " + show(CanonicalJson.write(rule)));
                    break;
                }
                case 1:
                    root.put("mode", pick("enforce", "monitor"));
                    steps.add("set mode");
                    break;
                case 2:
                    root.put("default", pick("allow", "deny"));
                    steps.add("set default");
                    break;
                case 3: {
                    List<Object> hide = root.get("hide") instanceof List<?> ? list(root.get("hide")) : new ArrayList<>();
                    hide.add(pick("tool_a", "run_command", "read_*", "t", "x?"));
                    root.put("hide", hide);
                    steps.add("hide one more");
                    break;
                }
                case 4: {
                    Map<String, Object> servers = root.get("servers") instanceof Map<?, ?> ? map(root.get("servers")) : new LinkedHashMap<>();
                    Map<String, Object> section = new LinkedHashMap<>();
                    if (random.nextBoolean()) {
                        section.put("default", pick("allow", "deny"));
                    }
                    section.put("tools", copy(Map.of(pick("t", "get_*", "read_file"), Map.of("action", pick("allow", "deny")))));
                    servers.put(pick("github", "fs", "s p a c e"), section);
                    root.put("servers", servers);
                    steps.add("add server section");
                    break;
                }
                case 5:
                    if (!tools.isEmpty()) {
                        String key = randomKey(tools);
                        tools.remove(key);
                        steps.add("delete rule " + show(key));
                    }
                    break;
                default:
                    if (!tools.isEmpty()) {
                        String key = randomKey(tools);
                        Object rule = tools.get(key);
                        if (rule instanceof Map<?, ?> fields && !fields.isEmpty()) {
                            String field = randomKey(fields);
                            fields.remove(field);
                            steps.add("delete " + show(field) + " of rule " + show(key));
                        }
                    }
            }
        }

        private Map<String, Object> validCondition() {
            Map<String, Object> condition = new LinkedHashMap<>();
            condition.put("path", pick("command", "amount", "a.b", "args.x", "list.0"));
            String op = pick("eq", "neq", "in", "not_in", "lt", "lte", "gt", "gte", "regex", "contains", "exists", "max_length");
            condition.put("op", op);
            switch (op) {
                case "in":
                case "not_in":
                    condition.put("value", copy(List.of("ls", 1, 2.5)));
                    break;
                case "lt":
                case "lte":
                case "gt":
                case "gte":
                    condition.put("value", pick(0, 100, -1.5, 1e300));
                    break;
                case "regex":
                    condition.put("value", pick("^ls", "rm -rf", "(?i)x", "[0-9]+"));
                    break;
                case "exists":
                    if (random.nextBoolean()) {
                        condition.put("value", random.nextBoolean());
                    }
                    break;
                case "max_length":
                    condition.put("value", pick(0, 3, 100));
                    break;
                default:
                    condition.put("value", pick("ls -la", "rm -rf", 50, true));
            }
            return condition;
        }

        private Object mutateTree(Object tree) {
            List<Object> containers = containers(tree);
            Object target = containers.get(random.nextInt(containers.size()));
            switch (random.nextInt(14)) {
                case 0:
                    if (target instanceof Map<?, ?> map && !map.isEmpty()) {
                        String key = randomKey(map);
                        map.remove(key);
                        steps.add("delete key " + show(key));
                    }
                    break;
                case 1:
                    if (target instanceof Map<?, ?>) {
                        String key = KEYS.get(random.nextInt(KEYS.size()));
                        map(target).put(key, value(0));
                        steps.add("add key " + show(key));
                    }
                    break;
                case 2:
                    if (target instanceof Map<?, ?> map && !map.isEmpty()) {
                        String key = randomKey(map);
                        String renamed = random.nextBoolean() ? KEYS.get(random.nextInt(KEYS.size())) : word();
                        rename(map(target), key, renamed);
                        steps.add("rename key " + show(key) + " to " + show(renamed));
                    }
                    break;
                case 3:
                    if (target instanceof Map<?, ?> map && map.size() >= 2) {
                        String a = randomKey(map);
                        String b = randomKey(map);
                        Object swap = map.get(a);
                        map(target).put(a, map.get(b));
                        map(target).put(b, swap);
                        steps.add("swap values of " + show(a) + " and " + show(b));
                    }
                    break;
                case 4:
                case 5:
                case 6:
                    replaceMember(target, value(0), "a random value");
                    break;
                case 7:
                    replaceMember(target, copy(containers.get(random.nextInt(containers.size()))), "a copy of another part");
                    break;
                case 8:
                    replaceMember(target, deep(), "deep nesting");
                    break;
                case 9:
                    replaceMember(target, longString(), "a long string");
                    break;
                case 10:
                    if (target instanceof List<?> list && !list.isEmpty()) {
                        int index = random.nextInt(list.size());
                        if (random.nextBoolean()) {
                            list(target).add(copy(list.get(index)));
                            steps.add("duplicate item " + index);
                        } else {
                            list(target).remove(index);
                            steps.add("delete item " + index);
                        }
                    }
                    break;
                case 11:
                    globTie(tree);
                    break;
                case 12:
                    addRule(tree);
                    break;
                default:
                    badRegex(tree);
            }
            return tree;
        }

        private void replaceMember(Object container, Object value, String what) {
            if (container instanceof Map<?, ?> map && !map.isEmpty()) {
                String key = randomKey(map);
                map(container).put(key, value);
                steps.add("set " + show(key) + " to " + what);
            } else if (container instanceof List<?> list && !list.isEmpty()) {
                int index = random.nextInt(list.size());
                list(container).set(index, value);
                steps.add("set item " + index + " to " + what);
            }
        }

        private void globTie(Object tree) {
            Map<String, Object> tools = toolsOf(tree);
            if (tools == null) {
                return;
            }
            String prefix = random.nextBoolean() ? "" : word().replace("*", "").replace("?", "");
            tools.put(prefix + "*", new LinkedHashMap<>());
            tools.put(prefix + (random.nextBoolean() ? "?" : "*x"), new LinkedHashMap<>());
            steps.add("glob tie on prefix " + show(prefix));
        }

        private void addRule(Object tree) {
            Map<String, Object> tools = toolsOf(tree);
            if (tools == null) {
                return;
            }
            Map<String, Object> rule = new LinkedHashMap<>();
            List<String> ruleKeys = List.of("action", "reason", "require", "deny_if", "limits", "arguments", "approval", "mode");
            for (String key : ruleKeys) {
                if (random.nextInt(3) == 0) {
                    rule.put(key, ruleValue(key));
                }
            }
            String name = random.nextBoolean() ? word() : "tool_" + random.nextInt(5);
            tools.put(name, rule);
            steps.add("add rule " + show(name) + " " + show(CanonicalJson.write(rule)));
        }

        private Object ruleValue(String key) {
            switch (key) {
                case "action": return pick("allow", "deny", "require_approval", word());
                case "mode": return pick("enforce", "monitor", word());
                case "approval": return random.nextBoolean() ? copy(Map.of("timeout", pick("10m", "0s", word()))) : value(1);
                case "arguments": return random.nextBoolean() ? "input_schema" : schema(0);
                case "limits": {
                    Map<String, Object> limit = new LinkedHashMap<>();
                    limit.put("window", random.nextBoolean() ? pick("minute", "30s", "1d") : value(1));
                    limit.put("max", random.nextBoolean() ? 1 + random.nextInt(10) : value(1));
                    if (random.nextBoolean()) {
                        limit.put("counter", pick("shared", "all", word()));
                    }
                    if (random.nextBoolean()) {
                        limit.put("scope", pick("global", "session", "client", "grant", word()));
                    }
                    if (random.nextBoolean()) {
                        limit.put("algorithm", pick("sliding", "fixed", "token_bucket", word()));
                    }
                    return new ArrayList<>(List.of(limit));
                }
                case "require":
                case "deny_if": {
                    List<Object> conditions = new ArrayList<>();
                    int count = 1 + random.nextInt(3);
                    for (int i = 0; i < count; i++) {
                        Map<String, Object> condition = new LinkedHashMap<>();
                        condition.put("path", random.nextInt(4) == 0 ? word() : pick("command", "amount", "a.b", "args.x", "list.0"));
                        condition.put("op", random.nextInt(5) == 0 ? word() : pick("eq", "neq", "in", "not_in", "lt", "lte",
                                "gt", "gte", "regex", "contains", "exists", "max_length"));
                        if (random.nextInt(5) != 0) {
                            condition.put("value", value(1));
                        }
                        conditions.add(condition);
                    }
                    return conditions;
                }
                default:
                    return word();
            }
        }

        private Object schema(int depth) {
            Map<String, Object> schema = new LinkedHashMap<>();
            List<String> keywords = List.of("type", "properties", "required", "enum", "const", "pattern", "minimum", "maximum",
                    "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "items", "minItems", "maxItems",
                    "additionalProperties", "title", "format", "$ref", "oneOf");
            int count = random.nextInt(4);
            for (int i = 0; i < count; i++) {
                String keyword = keywords.get(random.nextInt(keywords.size()));
                Object value;
                if (depth < 3 && (keyword.equals("items") || keyword.equals("additionalProperties"))) {
                    value = random.nextBoolean() ? schema(depth + 1) : value(2);
                } else if (depth < 3 && keyword.equals("properties")) {
                    value = new LinkedHashMap<>(Map.of(word(), schema(depth + 1)));
                } else if (keyword.equals("type")) {
                    value = pick("string", "number", "integer", "object", "array", "boolean", "null", word());
                } else {
                    value = value(2);
                }
                schema.put(keyword, value);
            }
            return schema;
        }

        private void badRegex(Object tree) {
            Map<String, Object> tools = toolsOf(tree);
            if (tools == null) {
                return;
            }
            String pattern = pick("(", "[a-", "a{1001}", "(?P<x", "\\", "*", "a**", "(?<!x)", "\\8", "[[:foo:]]", "(?i", "x{2,1}");
            Map<String, Object> condition = new LinkedHashMap<>();
            condition.put("path", "command");
            condition.put("op", "regex");
            condition.put("value", pattern);
            Map<String, Object> rule = new LinkedHashMap<>();
            if (random.nextBoolean()) {
                rule.put("deny_if", new ArrayList<>(List.of(condition)));
            } else {
                rule.put("arguments", new LinkedHashMap<>(Map.of("type", "object", "properties",
                        new LinkedHashMap<>(Map.of("command", new LinkedHashMap<>(Map.of("pattern", pattern)))))));
            }
            tools.put("regex_tool", rule);
            steps.add("bad regex " + show(pattern));
        }

        @SuppressWarnings("unchecked")
        private Map<String, Object> toolsOf(Object tree) {
            if (!(tree instanceof Map<?, ?> root)) {
                return null;
            }
            Object tools = root.get("tools");
            if (!(tools instanceof Map<?, ?>)) {
                tools = new LinkedHashMap<String, Object>();
                map(root).put("tools", tools);
            }
            return (Map<String, Object>) tools;
        }

        /** A random value: usually a scalar, sometimes a small list or object. */
        private Object value(int depth) {
            int pick = random.nextInt(depth >= 2 ? 8 : 10);
            switch (pick) {
                case 0:
                case 1:
                case 2:
                    return word();
                case 3:
                case 4:
                    return NUMBERS.get(random.nextInt(NUMBERS.size()));
                case 5:
                    return random.nextBoolean();
                case 6:
                    return null;
                case 7:
                    return random.nextInt(1_000_000) - 500_000;
                case 8: {
                    List<Object> list = new ArrayList<>();
                    int count = random.nextInt(4);
                    for (int i = 0; i < count; i++) {
                        list.add(value(depth + 1));
                    }
                    return list;
                }
                default: {
                    Map<String, Object> map = new LinkedHashMap<>();
                    int count = random.nextInt(4);
                    for (int i = 0; i < count; i++) {
                        map.put(KEYS.get(random.nextInt(KEYS.size())), value(depth + 1));
                    }
                    return map;
                }
            }
        }

        private Raw deep() {
            int depth = List.of(10, 62, 63, 64, 65, 200, 999, 1_001, 3_000).get(random.nextInt(9));
            boolean arrays = random.nextBoolean();
            String open = arrays ? "[" : "{\"a\":";
            String close = arrays ? "]" : "}";
            steps.add("nest " + depth + (arrays ? " arrays" : " objects"));
            return new Raw(open.repeat(depth) + (arrays ? "1" : "1") + close.repeat(depth));
        }

        private String longString() {
            int length = List.of(300, 5_000, 5_000, 70_000).get(random.nextInt(4));
            String unit = pick("a", "\u00e9", "\uD83D\uDE00", "ab ", "\u202e");
            return unit.repeat(length / unit.length());
        }

        private String word() {
            return WORDS.get(random.nextInt(WORDS.size()));
        }

        @SafeVarargs
        private <T> T pick(T... choices) {
            return choices[random.nextInt(choices.length)];
        }

        private String randomKey(Map<?, ?> map) {
            List<Object> keys = new ArrayList<>(map.keySet());
            return (String) keys.get(random.nextInt(keys.size()));
        }

        // --- text and byte mutations ---

        private String mutateText(String text) {
            if (text.isEmpty()) {
                return SNIPPETS.get(random.nextInt(SNIPPETS.size()));
            }
            int at = random.nextInt(text.length() + 1);
            switch (random.nextInt(9)) {
                case 0:
                    steps.add("truncate at " + at);
                    return text.substring(0, at);
                case 1: {
                    int end = Math.min(text.length(), at + 1 + random.nextInt(20));
                    steps.add("delete " + at + ".." + end);
                    return text.substring(0, at) + text.substring(end);
                }
                case 2:
                case 3: {
                    String snippet = SNIPPETS.get(random.nextInt(SNIPPETS.size()));
                    steps.add("insert " + show(snippet) + " at " + at);
                    return text.substring(0, at) + snippet + text.substring(at);
                }
                case 4: {
                    String snippet = SNIPPETS.get(random.nextInt(SNIPPETS.size()));
                    int end = Math.min(text.length(), at + 1);
                    steps.add("replace char " + at + " with " + show(snippet));
                    return text.substring(0, at) + snippet + text.substring(end);
                }
                case 5: {
                    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
                    int line = random.nextInt(lines.size());
                    String copy = lines.get(line);
                    lines.add(line, copy.endsWith(",") || !copy.contains("\"") ? copy : copy + ",");
                    steps.add("duplicate line " + line);
                    return String.join("\n", lines);
                }
                case 6: {
                    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
                    int a = random.nextInt(lines.size());
                    int b = random.nextInt(lines.size());
                    String swap = lines.get(a);
                    lines.set(a, lines.get(b));
                    lines.set(b, swap);
                    steps.add("swap lines " + a + " and " + b);
                    return String.join("\n", lines);
                }
                case 7: {
                    int flip = random.nextInt(4);
                    steps.add("flip syntax " + flip);
                    switch (flip) {
                        case 0: return text.replace(",", "");
                        case 1: return text.replace("{", "").replace("}", "");
                        case 2: return text.replace("\"", "");
                        default: return text.replace(": ", " = ");
                    }
                }
                default: {
                    String raw = deep().text();
                    steps.add("insert deep nesting at " + at);
                    return text.substring(0, at) + raw + text.substring(at);
                }
            }
        }

        private byte[] mutateBytes(byte[] bytes) {
            int at = random.nextInt(bytes.length + 1);
            switch (random.nextInt(3)) {
                case 0:
                    steps.add("truncate at byte " + at);
                    return java.util.Arrays.copyOf(bytes, at);
                case 1: {
                    byte[][] inserts = {{(byte) 0xFF}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                            {(byte) 0xFE, (byte) 0xFF}, {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, {0}, {(byte) 0x80},
                            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) random.nextInt(256)}};
                    byte[] insert = inserts[random.nextInt(inserts.length)];
                    byte[] out = new byte[bytes.length + insert.length];
                    System.arraycopy(bytes, 0, out, 0, at);
                    System.arraycopy(insert, 0, out, at, insert.length);
                    System.arraycopy(bytes, at, out, at + insert.length, bytes.length - at);
                    steps.add("insert bytes " + java.util.HexFormat.of().formatHex(insert) + " at byte " + at);
                    return out;
                }
                default: {
                    byte[] out = bytes.clone();
                    if (out.length > 0) {
                        int index = Math.min(at, out.length - 1);
                        int bit = random.nextInt(8);
                        out[index] ^= (byte) (1 << bit);
                        steps.add("flip bit " + bit + " of byte " + index);
                    }
                    return out;
                }
            }
        }

        private static String show(String text) {
            String shown = CanonicalJson.write(text);
            return shown.length() <= 80 ? shown : shown.substring(0, 80) + "...\"";
        }
    }

    // --- plain trees: copy, walk, render ---

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value) {
        return (List<Object>) value;
    }

    private static Object copy(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> copy.put((String) key, copy(item)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(item -> copy.add(copy(item)));
            return copy;
        }
        return value;
    }

    private static List<Object> containers(Object tree) {
        List<Object> found = new ArrayList<>();
        List<Object> pending = new ArrayList<>(List.of(tree));
        while (!pending.isEmpty()) {
            Object value = pending.remove(pending.size() - 1);
            if (value instanceof Map<?, ?> map) {
                found.add(value);
                pending.addAll(map.values().stream().filter(v -> v instanceof Map || v instanceof List).toList());
            } else if (value instanceof List<?> list) {
                found.add(value);
                pending.addAll(list.stream().filter(v -> v instanceof Map || v instanceof List).toList());
            }
        }
        if (found.isEmpty()) {
            found.add(new LinkedHashMap<String, Object>());
        }
        return found;
    }

    private static void rename(Map<String, Object> map, String from, String to) {
        Map<String, Object> renamed = new LinkedHashMap<>();
        map.forEach((key, value) -> renamed.put(key.equals(from) ? to : key, value));
        map.clear();
        map.putAll(renamed);
    }

    private static String literal(Object value) {
        return value instanceof Raw raw ? raw.text() : CanonicalJson.write(value);
    }

    private static String renderJson(Object tree) {
        StringBuilder out = new StringBuilder();
        renderJson(tree, "", out);
        return out.append('\n').toString();
    }

    private static void renderJson(Object value, String indent, StringBuilder out) {
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            out.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(indent).append("  ").append(CanonicalJson.write(entry.getKey())).append(": ");
                renderJson(entry.getValue(), indent + "  ", out);
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            out.append(indent).append('}');
        } else if (value instanceof List<?> list && !list.isEmpty()) {
            out.append("[\n");
            for (int i = 0; i < list.size(); i++) {
                out.append(indent).append("  ");
                renderJson(list.get(i), indent + "  ", out);
                out.append(i + 1 < list.size() ? ",\n" : "\n");
            }
            out.append(indent).append(']');
        } else {
            out.append(literal(value));
        }
    }

    private static String renderYaml(Object tree) {
        if (!(tree instanceof Map<?, ?> map) || map.isEmpty()) {
            return yamlScalar(tree) + "\n";
        }
        StringBuilder out = new StringBuilder();
        renderYaml(tree, "", out);
        return out.toString();
    }

    private static void renderYaml(Object value, String indent, StringBuilder out) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(indent).append(yamlScalar(entry.getKey())).append(':');
                yamlMember(entry.getValue(), indent, out);
            }
        } else {
            for (Object item : (List<?>) value) {
                out.append(indent).append('-');
                yamlMember(item, indent, out);
            }
        }
    }

    private static void yamlMember(Object value, String indent, StringBuilder out) {
        boolean block = value instanceof Map<?, ?> map && !map.isEmpty() || value instanceof List<?> list && !list.isEmpty();
        if (block) {
            out.append('\n');
            renderYaml(value, indent + "  ", out);
        } else {
            out.append(' ').append(yamlScalar(value)).append('\n');
        }
    }

    private static final Set<String> YAML_WORDS = new LinkedHashSet<>(List.of(
            "null", "true", "false", "yes", "no", "on", "off", "y", "n", "Null", "NULL", "True", "False", "TRUE", "FALSE"));

    private static String yamlScalar(Object value) {
        if (value instanceof Map<?, ?>) {
            return "{}";
        }
        if (value instanceof List<?>) {
            return "[]";
        }
        if (value instanceof String text && PLAIN_YAML.matcher(text).matches() && !YAML_WORDS.contains(text)) {
            return text;
        }
        return literal(value);
    }
}
