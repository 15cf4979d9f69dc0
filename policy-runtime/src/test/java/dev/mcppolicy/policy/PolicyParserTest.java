package dev.mcppolicy.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcppolicy.json.CanonicalJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyParserTest {
    private static final String SPEC_REGEX = "^(ls|cat|echo|git status)( .*)?$";

    @TempDir
    Path dir;

    @Test
    void parsesTheSpecExampleIntoTheDocumentedModel() throws Exception {
        Policy policy = PolicyParser.parse(resource("spec-example.json"));

        assertThat(policy.version()).isEqualTo("1");
        assertThat(policy.defaultAction()).isEqualTo(Action.DENY);
        assertThat(policy.mode()).isEqualTo(Mode.ENFORCE);
        assertThat(policy.hide()).containsExactly("delete_account");
        assertThat(policy.allToolsLimits()).containsExactly(
                new Limit("all", Duration.ofMinutes(1), 600, Scope.GLOBAL, Algorithm.SLIDING));
        assertThat(policy.tools()).containsOnlyKeys("read_file", "run_command", "sandbox_exec_background", "delete_*");
        assertThat(policy.tools().keySet()).containsExactly("read_file", "run_command", "sandbox_exec_background", "delete_*");
        assertThat(policy.tools().get("read_file")).isEqualTo(ToolRule.allow("read_file"));
        assertThat(policy.tools().get("run_command")).isEqualTo(new ToolRule("run_command", Action.ALLOW,
                "run_command is limited to read-only commands",
                List.of(new Condition("command", Op.REGEX, SPEC_REGEX)),
                List.of(new Condition("command", Op.CONTAINS, "rm -rf")),
                List.of(new Limit("run_command_rate", Duration.ofMinutes(1), 10, Scope.CLIENT, Algorithm.SLIDING)),
                null, false, null, null));
        assertThat(policy.tools().get("sandbox_exec_background")).isEqualTo(new ToolRule("sandbox_exec_background",
                Action.REQUIRE_APPROVAL, null, List.of(), List.of(), List.of(), null, false,
                new Approval(Duration.ofMinutes(10)), null));
        assertThat(policy.tools().get("delete_*")).isEqualTo(new ToolRule("delete_*", Action.DENY,
                "destructive tools are disabled", List.of(), List.of(), List.of(), null, false, null, null));
        assertThat(policy.servers()).containsOnlyKeys("github");
        assertThat(policy.servers().get("github")).isEqualTo(
                new ServerPolicy(Action.DENY, List.of(), Map.of("get_issue", ToolRule.allow("get_issue"))));
    }

    @Test
    void hashesTheExactBytesOfTheSource() throws Exception {
        Path file = resource("spec-example.json");

        Policy policy = PolicyParser.parse(file);

        assertThat(policy.sha256()).isEqualTo(CanonicalJson.sha256Hex(Files.readAllBytes(file)))
                .hasSize(64).matches("[0-9a-f]{64}");
    }

    @Test
    void yamlTwinOfTheSpecExampleGivesTheSameModel() throws Exception {
        Policy json = PolicyParser.parse(resource("spec-example.json"));
        Policy yaml = PolicyParser.parse(resource("spec-example.yaml"));

        assertThat(withoutHash(yaml)).isEqualTo(withoutHash(json));
        assertThat(yaml.sha256()).isNotEqualTo(json.sha256());
    }

    @Test
    void choosesTheFormatByExtension() {
        assertThat(PolicyParser.formatOf("policy.json")).isEqualTo(PolicyParser.Format.JSON);
        assertThat(PolicyParser.formatOf("/etc/mcp/POLICY.JSON")).isEqualTo(PolicyParser.Format.JSON);
        assertThat(PolicyParser.formatOf("policy.yaml")).isEqualTo(PolicyParser.Format.YAML);
        assertThat(PolicyParser.formatOf("policy.yml")).isEqualTo(PolicyParser.Format.YAML);
        assertThat(PolicyParser.formatOf("policy.Yml")).isEqualTo(PolicyParser.Format.YAML);
        assertThat(PolicyParser.formatOf("policy")).isNull();
        assertThat(PolicyParser.formatOf("policy.txt")).isNull();
        assertThat(PolicyParser.formatOf("json")).isNull();
    }

    @Test
    void extensionWinsOverContent() throws IOException {
        Path file = Files.writeString(dir.resolve("policy.json"), "version: \"1\"\n");

        assertThatThrownBy(() -> PolicyParser.parse(file))
                .isInstanceOfSatisfying(PolicyException.class, e -> {
                    assertThat(e.errors()).hasSize(1);
                    assertThat(e.errors().get(0).message()).startsWith("malformed JSON: ");
                });
    }

    @Test
    void readsYamlFromAYmlFile() throws Exception {
        Path file = Files.writeString(dir.resolve("policy.yml"), "version: \"1\"\ndefault: allow\n");

        assertThat(PolicyParser.parse(file).defaultAction()).isEqualTo(Action.ALLOW);
    }

    @Test
    void sniffsTheFormatOfAFileWithoutATellingExtension() throws Exception {
        Path json = Files.writeString(dir.resolve("policy"), "\uFEFF \n\t{\"version\": \"1\", \"default\": \"allow\"}");
        Path yaml = Files.writeString(dir.resolve("policy.conf"), "\n# comment\nversion: \"1\"\ndefault: allow\n");

        assertThat(PolicyParser.parse(json).defaultAction()).isEqualTo(Action.ALLOW);
        assertThat(PolicyParser.parse(yaml).defaultAction()).isEqualTo(Action.ALLOW);
    }

    @Test
    void acceptsAByteOrderMarkInJsonAndYaml() throws Exception {
        Path json = Files.writeString(dir.resolve("bom.json"), "\uFEFF{\"version\": \"1\", \"default\": \"allow\"}");
        Path yaml = Files.writeString(dir.resolve("bom.yaml"), "\uFEFFversion: \"1\"\ndefault: allow\n");

        assertThat(PolicyParser.parse(json).defaultAction()).isEqualTo(Action.ALLOW);
        assertThat(PolicyParser.parse(yaml).defaultAction()).isEqualTo(Action.ALLOW);
    }

    @Test
    void sniffsTheFormatOfTextWhenNoneIsGiven() throws Exception {
        assertThat(PolicyParser.parse("{\"version\": \"1\", \"mode\": \"monitor\"}", null, "inline").mode())
                .isEqualTo(Mode.MONITOR);
        assertThat(PolicyParser.parse("version: '1'\nmode: monitor\n", null, "inline").mode())
                .isEqualTo(Mode.MONITOR);
        assertThat(PolicyParser.parse("{version: '1', mode: monitor}", PolicyParser.Format.YAML, "inline").mode())
                .isEqualTo(Mode.MONITOR);
    }

    @Test
    void parsesAMinimalPolicyWithDefaults() throws Exception {
        Policy policy = PolicyParser.parse("{\"version\": \"1\"}", PolicyParser.Format.JSON, "inline");

        assertThat(policy).isEqualTo(new Policy("1", Action.DENY, Mode.ENFORCE, List.of(), List.of(), Map.of(),
                Map.of(), policy.sha256()));
    }

    @Test
    void acceptsVersionWrittenAsANumber() throws Exception {
        assertThat(PolicyParser.parse("{\"version\": 1}", PolicyParser.Format.JSON, "inline").version()).isEqualTo("1");
        assertThat(PolicyParser.parse("version: 1\n", PolicyParser.Format.YAML, "inline").version()).isEqualTo("1");
    }

    @Test
    void readsEveryOptionalPartOfARule() throws Exception {
        Policy policy = PolicyParser.parse("""
                {"version": "1", "default": "allow", "mode": "monitor",
                 "tools": {"t": {"mode": "enforce", "arguments": "input_schema",
                                 "limits": [{"counter": "c", "window": 30, "max": 2, "scope": "session",
                                             "algorithm": "token_bucket"},
                                            {"window": "1d", "max": 1, "scope": "client", "algorithm": "fixed"}],
                                 "require": [{"path": "args.a.0.b", "op": "exists"},
                                             {"path": "n", "op": "in", "value": [1, "x", null]}],
                                 "deny_if": [{"path": "n", "op": "exists", "value": false}]},
                           "u": null},
                 "servers": {"s": {"hide": ["x*"]}}}
                """, PolicyParser.Format.JSON, "inline");

        ToolRule rule = policy.tools().get("t");
        assertThat(rule.mode()).isEqualTo(Mode.ENFORCE);
        assertThat(rule.validateInputSchema()).isTrue();
        assertThat(rule.argumentsSchema()).isNull();
        assertThat(rule.limits()).containsExactly(
                new Limit("c", Duration.ofSeconds(30), 2, Scope.SESSION, Algorithm.TOKEN_BUCKET),
                new Limit("tools/t:1/1d/client/fixed", Duration.ofDays(1), 1, Scope.CLIENT, Algorithm.FIXED));
        assertThat(rule.require()).containsExactly(
                new Condition("args.a.0.b", Op.EXISTS, true),
                new Condition("n", Op.IN, Arrays.asList(1, "x", null)));
        assertThat(rule.denyIf()).containsExactly(new Condition("n", Op.EXISTS, false));
        assertThat(policy.tools().get("u")).isEqualTo(ToolRule.allow("u"));
        assertThat(policy.servers().get("s")).isEqualTo(new ServerPolicy(null, List.of("x*"), Map.of()));
    }

    @Test
    void compilesAnArgumentsSchema() throws Exception {
        Policy policy = PolicyParser.parse("""
                {"version": "1", "tools": {"t": {"arguments": {"type": "object", "required": ["path"]}}}}
                """, PolicyParser.Format.JSON, "inline");

        assertThat(policy.tools().get("t").argumentsSchema().firstViolation(Map.of()))
                .isEqualTo("at /: required property 'path' is missing");
        assertThat(policy.tools().get("t").argumentsSchema().firstViolation(Map.of("path", "x"))).isNull();
    }

    @Test
    void theModelCannotBeChanged() throws Exception {
        Policy policy = PolicyParser.parse(resource("spec-example.json"));

        assertThatThrownBy(() -> policy.tools().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> policy.hide().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> policy.servers().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> policy.tools().get("run_command").limits().clear())
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void reportsAMissingFileWithoutAStackTrace() {
        Path missing = dir.resolve("nope.json");

        assertThatThrownBy(() -> PolicyParser.parse(missing))
                .isInstanceOfSatisfying(PolicyException.class, e -> {
                    assertThat(e.errors()).containsExactly(new PolicyError("", 0, 0, "file not found"));
                    assertThat(e.source()).isEqualTo(missing.toString());
                    assertThat(e.getStackTrace()).isEmpty();
                    assertThat(e.getMessage()).isEqualTo(missing + ": 1 error" + System.lineSeparator()
                            + "  (document): file not found");
                });
    }

    static Policy withoutHash(Policy policy) {
        return new Policy(policy.version(), policy.defaultAction(), policy.mode(), policy.hide(),
                policy.allToolsLimits(), policy.tools(), policy.servers(), null);
    }

    private Path resource(String name) throws IOException {
        try (InputStream in = PolicyParserTest.class.getResourceAsStream("/policies/" + name)) {
            assertThat(in).as(name).isNotNull();
            return Files.write(dir.resolve(name), in.readAllBytes());
        }
    }

    static String text(String name) throws IOException {
        try (InputStream in = PolicyParserTest.class.getResourceAsStream("/policies/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
