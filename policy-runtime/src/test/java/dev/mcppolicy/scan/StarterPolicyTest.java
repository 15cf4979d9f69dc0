package dev.mcppolicy.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.policy.Action;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.PolicyLint;
import dev.mcppolicy.policy.PolicyParser;
import dev.mcppolicy.policy.ToolRule;
import dev.mcppolicy.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StarterPolicyTest {
    private static final Map<String, Object> COMMAND_SCHEMA = Map.of("type", "object",
            "properties", Map.of("command", Map.of("type", "string")), "required", List.of("command"));

    private static final List<ScannedTool> TOOLS = List.of(
            new ScannedTool("read_file", "Reads a file", null, null),
            new ScannedTool("write_file", null, null, null),
            new ScannedTool("run_command", null, null, COMMAND_SCHEMA),
            new ScannedTool("delete_file", null, Map.of("destructiveHint", true), null),
            new ScannedTool("wire_money", null, null, null));

    @Test
    void writesTheRuleEachCategoryWarrantsWithItsReason() throws PolicyException {
        for (PolicyParser.Format format : PolicyParser.Format.values()) {
            Policy policy = parse(StarterPolicy.of(TOOLS), format);
            assertThat(policy.defaultAction()).isEqualTo(Action.DENY);
            assertThat(policy.tools()).containsOnlyKeys("read_file", "write_file", "run_command", "delete_file", "wire_money");

            ToolRule read = policy.tools().get("read_file");
            assertThat(read.action()).isEqualTo(Action.ALLOW);
            assertThat(read.limits()).isEmpty();
            assertThat(read.reason()).isEqualTo("read: no annotations, and no word of risk in the name or at the start of the description; allowed");

            ToolRule write = policy.tools().get("write_file");
            assertThat(write.limits()).singleElement().satisfies(limit -> assertThat(limit.max()).isEqualTo(60));
            assertThat(write.reason()).isEqualTo("write: no annotations; the name has 'write'; allowed, at most 60 calls a minute per client");

            ToolRule execute = policy.tools().get("run_command");
            assertThat(execute.validateInputSchema()).isTrue();
            assertThat(execute.limits()).singleElement().satisfies(limit -> assertThat(limit.max()).isEqualTo(10));
            assertThat(execute.reason()).startsWith("execute: no annotations; the name has 'run'; allowed when the arguments match");

            assertThat(policy.tools().get("delete_file").action()).isEqualTo(Action.REQUIRE_APPROVAL);
            assertThat(policy.tools().get("delete_file").reason()).startsWith("destructive: annotations say destructiveHint=true; each call waits");
            assertThat(policy.tools().get("wire_money").action()).isEqualTo(Action.REQUIRE_APPROVAL);
            assertThat(policy.tools().get("wire_money").reason()).startsWith("financial: no annotations; the name has 'wire'");
            assertThat(PolicyLint.warnings(policy)).isEmpty();
        }
    }

    @Test
    void theWrittenPolicyDecidesAsTheCategoriesSay() throws PolicyException {
        Policy policy = parse(StarterPolicy.of(TOOLS), PolicyParser.Format.JSON);
        PolicyEngine engine = PolicyEngine.of(policy, new ManualClock(Instant.parse("2026-01-01T00:00:00Z")));
        assertThat(decide(engine, "read_file", Map.of()).effect()).isEqualTo(Effect.ALLOW);
        assertThat(decide(engine, "unlisted", Map.of()).effect()).isEqualTo(Effect.DENY);
        assertThat(decide(engine, "delete_file", Map.of()).effect()).isEqualTo(Effect.REQUIRE_APPROVAL);
        assertThat(decide(engine, "run_command", Map.of("command", 42)).effect()).isEqualTo(Effect.DENY);
        for (int i = 0; i < 10; i++) {
            assertThat(decide(engine, "run_command", Map.of("command", "ls")).effect()).isEqualTo(Effect.ALLOW);
        }
        Decision eleventh = decide(engine, "run_command", Map.of("command", "ls"));
        assertThat(eleventh.effect()).isEqualTo(Effect.DENY);
        assertThat(eleventh.rule()).isEqualTo("/tools/run_command/limits/0");
    }

    @Test
    void anExecuteToolWhoseSchemaNamesNoArgumentAsksForAnAllowList() throws PolicyException {
        Policy policy = parse(StarterPolicy.of(List.of(new ScannedTool("exec", null, null, Map.of("type", "object")))),
                PolicyParser.Format.JSON);
        assertThat(policy.tools().get("exec").reason()).endsWith("; its schema names no argument, so that checks little: add a \"require\" allow-list of what may run");
    }

    @Test
    void leavesOutNamesThatCannotBeAPolicyKeyAndNamesListedTwice() throws PolicyException {
        StarterPolicy starter = StarterPolicy.of(List.of(
                new ScannedTool("delete_*", null, null, null),
                new ScannedTool("get?", null, null, null),
                new ScannedTool("bad\nname", null, null, null),
                new ScannedTool("", null, null, null),
                new ScannedTool("echo", null, null, null),
                new ScannedTool("echo", null, Map.of("destructiveHint", true), null)));
        assertThat(starter.skipped()).containsExactly(
                "'delete_*': its name has '*' or '?', which a policy key reads as a glob; default deny applies",
                "'get?': its name has '*' or '?', which a policy key reads as a glob; default deny applies",
                "'bad\\nname': its name has a control or invisible character; default deny applies",
                "a tool without a name",
                "'echo': listed twice; the first listing is used");
        for (PolicyParser.Format format : PolicyParser.Format.values()) {
            Policy policy = parse(starter, format);
            assertThat(policy.tools()).containsOnlyKeys("echo");
            assertThat(policy.tools().get("echo").action()).isEqualTo(Action.ALLOW);
        }
    }

    @Test
    void yamlKeepsEveryNameExactlyAndCarriesTheHeaderAndCategoriesAsComments() throws PolicyException {
        List<String> names = List.of("run_command", "a: b", "On", "1e3", "x.y-z", "#hash", "quote\"d", "back\\slash", "ünïcødé", "emoji😀", "- dash", "yes", "null", "@at", "{x}");
        List<ScannedTool> tools = names.stream().map(name -> new ScannedTool(name, null, null, null)).toList();
        String yaml = StarterPolicy.of(tools).yaml(List.of("Starter policy for a server", "review it"));
        assertThat(yaml).startsWith("# Starter policy for a server\n# review it\nversion: \"1\"\n");
        assertThat(yaml).contains("default: deny\n", "  # execute\n  run_command:\n    arguments: input_schema\n    limits:\n"
                + "      - counter: run_command\n        window: minute\n        max: 10\n        scope: client\n    reason: \"execute:",
                "  # read\n  \"a: b\":\n", "  \"On\":\n", "  \"1e3\":\n", "  x.y-z:\n", "  \"yes\":\n");
        Policy policy = PolicyParser.parse(yaml, PolicyParser.Format.YAML, "starter.yaml");
        assertThat(policy.tools().keySet()).containsExactlyElementsOf(names);
        assertThat(PolicyParser.parse(StarterPolicy.of(tools).json(), PolicyParser.Format.JSON, "starter.json").tools().keySet())
                .containsExactlyElementsOf(names);
    }

    @Test
    void aServerWithNoToolsGetsAPolicyThatDeniesEverything() throws PolicyException {
        for (PolicyParser.Format format : PolicyParser.Format.values()) {
            Policy policy = parse(StarterPolicy.of(List.of()), format);
            assertThat(policy.tools()).isEmpty();
            assertThat(policy.defaultAction()).isEqualTo(Action.DENY);
        }
    }

    private static Policy parse(StarterPolicy starter, PolicyParser.Format format) throws PolicyException {
        String text = format == PolicyParser.Format.JSON ? starter.json() : starter.yaml(List.of("test"));
        return PolicyParser.parse(text, format, "starter." + format.name().toLowerCase(java.util.Locale.ROOT));
    }

    private static Decision decide(PolicyEngine engine, String tool, Map<String, Object> arguments) {
        return engine.decide(new ToolCall(Side.SERVER, null, tool, arguments, "s1", "c1", tool.equals("run_command") ? COMMAND_SCHEMA : null));
    }
}
