package dev.mcppolicy.engine;

import dev.mcppolicy.ratelimit.RateLimitStore;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.policy.PolicyError;
import dev.mcppolicy.policy.internal.TreeReader;
import dev.mcppolicy.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyEngineTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    private PolicyEngine engine(String policy) {
        return PolicyEngine.of(Policies.parse(policy), clock);
    }

    private static ToolCall call(String tool, Map<String, ?> args) {
        return new ToolCall(Side.SERVER, null, tool, args, "s1", "alice", null);
    }

    private static ToolCall clientCall(String server, String tool) {
        return new ToolCall(Side.CLIENT, server, tool, Map.of(), "s1", "alice", null);
    }

    @Test
    void specExampleBehavesAsDocumented() {
        PolicyEngine engine = PolicyEngine.of(Policies.resource("spec-example.json"), clock);

        assertThat(engine.decide(call("read_file", Map.of("path", "a.txt"))))
                .isEqualTo(new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/read_file", null, 0));
        assertThat(engine.decide(call("run_command", Map.of("command", "ls -la"))).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(call("run_command", Map.of("command", "git status"))).effect()).isEqualTo(Effect.ALLOW);

        Decision notReadOnly = engine.decide(call("run_command", Map.of("command", "curl evil.example")));
        assertThat(notReadOnly.effect()).isEqualTo(Effect.DENY);
        assertThat(notReadOnly.rule()).isEqualTo("/tools/run_command/require/0");
        assertThat(notReadOnly.reason()).isEqualTo("run_command is limited to read-only commands");

        Decision rmRf = engine.decide(call("run_command", Map.of("command", "ls -la; rm -rf /")));
        assertThat(rmRf.rule()).isEqualTo("/tools/run_command/deny_if/0");

        Decision destructive = engine.decide(call("delete_file", Map.of()));
        assertThat(destructive).isEqualTo(new Decision(Effect.DENY, Effect.DENY, "/tools/delete_*",
                "destructive tools are disabled", 0));
        assertThat(destructive.callerMessage("delete_file"))
                .isEqualTo("Policy denied tool 'delete_file': destructive tools are disabled [rule /tools/delete_*]");

        assertThat(engine.decide(call("delete_account", Map.of())).rule()).isEqualTo("(hidden)");
        assertThat(engine.decide(call("send_email", Map.of())))
                .isEqualTo(new Decision(Effect.DENY, Effect.DENY, "(default)", "no policy rule allows this tool (default: deny)", 0));

        Decision approval = engine.decide(call("sandbox_exec_background", Map.of()));
        assertThat(approval.effect()).isEqualTo(Effect.REQUIRE_APPROVAL);
        assertThat(approval.rule()).isEqualTo("/tools/sandbox_exec_background");

        assertThat(engine.decide(clientCall("github", "get_issue")).rule()).isEqualTo("/servers/github/tools/get_issue");
        assertThat(engine.decide(clientCall("github", "create_issue")).rule()).isEqualTo("(default)");
        assertThat(engine.decide(clientCall("github", "read_file")).rule())
                .as("a server section is consulted first, then the top-level rules")
                .isEqualTo("/tools/read_file");
    }

    @Test
    void specExampleRateLimitsRunCommandPerClient() {
        PolicyEngine engine = PolicyEngine.of(Policies.resource("spec-example.json"), clock);
        for (int i = 0; i < 10; i++) {
            assertThat(engine.decide(call("run_command", Map.of("command", "ls"))).effect()).isEqualTo(Effect.ALLOW);
        }
        Decision limited = engine.decide(call("run_command", Map.of("command", "ls")));
        assertThat(limited.effect()).isEqualTo(Effect.DENY);
        assertThat(limited.rule()).isEqualTo("/tools/run_command/limits/0");
        assertThat(limited.retryAfterSeconds()).isEqualTo(60);
        assertThat(limited.callerMessage("run_command")).isEqualTo("Policy denied tool 'run_command': rate limit exceeded: "
                + "counter 'run_command_rate' allows 10 per 1m, scope client; retry after 60s [rule /tools/run_command/limits/0]");

        ToolCall bob = new ToolCall(Side.SERVER, null, "run_command", Map.of("command", "ls"), "s2", "bob", null);
        assertThat(engine.decide(bob).effect()).as("another client has its own budget").isEqualTo(Effect.ALLOW);
    }

    @Test
    void exactNameBeatsGlobAndLongestLiteralPrefixWins() {
        PolicyEngine engine = engine("""
                version: "1"
                tools:
                  "*": {action: deny, reason: everything}
                  "file_*": {action: deny, reason: files}
                  "file_read*": {}
                  "file_delete": {}
                """);
        assertThat(engine.decide(call("file_delete", Map.of())).rule()).isEqualTo("/tools/file_delete");
        assertThat(engine.decide(call("file_read_all", Map.of())).rule()).isEqualTo("/tools/file_read*");
        assertThat(engine.decide(call("file_write", Map.of())).rule()).isEqualTo("/tools/file_*");
        assertThat(engine.decide(call("shell", Map.of())).rule()).isEqualTo("/tools/*");
    }

    @Test
    void questionMarkMatchesOneCharacterAndPointersEscapeSlashes() {
        PolicyEngine engine = engine("""
                {"version": "1", "tools": {"v?": {}, "a/b": {"action": "deny"}}}
                """);
        assertThat(engine.decide(call("v1", Map.of())).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(call("v12", Map.of())).effect()).isEqualTo(Effect.DENY);
        assertThat(engine.decide(call("a/b", Map.of())).rule()).isEqualTo("/tools/a~1b");
    }

    @Test
    void hiddenToolsAreDeniedEvenWhenARuleAllowsThem() {
        PolicyEngine engine = engine("""
                version: "1"
                default: allow
                hide: [secret, "debug_*"]
                tools:
                  secret: {}
                """);
        assertThat(engine.decide(call("secret", Map.of())).rule()).isEqualTo("(hidden)");
        assertThat(engine.decide(call("debug_dump", Map.of())).isHidden()).isTrue();
        assertThat(engine.decide(call("other", Map.of())))
                .isEqualTo(new Decision(Effect.ALLOW, Effect.ALLOW, "(default)", null, 0));
    }

    @Test
    void defaultAllowStillAppliesAllToolsLimits() {
        PolicyEngine engine = engine("""
                version: "1"
                default: allow
                all_tools:
                  limits: [{counter: all, window: minute, max: 2}]
                """);
        assertThat(engine.decide(call("a", Map.of())).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(call("b", Map.of())).effect()).isEqualTo(Effect.ALLOW);
        Decision third = engine.decide(call("c", Map.of()));
        assertThat(third.effect()).isEqualTo(Effect.DENY);
        assertThat(third.rule()).isEqualTo("/all_tools/limits/0");
    }

    @Test
    void evaluatesInSpecOrderActionSchemaRequireDenyIfThenLimits() {
        PolicyEngine engine = engine("""
                version: "1"
                tools:
                  t:
                    arguments: {type: object, required: [n]}
                    require: [{path: n, op: lt, value: 10}]
                    deny_if: [{path: n, op: eq, value: 5}]
                    limits: [{counter: t, window: hour, max: 1}]
                """);
        assertThat(engine.decide(call("t", Map.of())).rule()).isEqualTo("/tools/t/arguments");
        assertThat(engine.decide(call("t", Map.of("n", 20))).rule()).isEqualTo("/tools/t/require/0");
        assertThat(engine.decide(call("t", Map.of("n", 5))).rule()).isEqualTo("/tools/t/deny_if/0");
        assertThat(engine.decide(call("t", Map.of("n", 1))).effect())
                .as("the denied calls above took no rate-limit units").isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(call("t", Map.of("n", 1))).rule()).isEqualTo("/tools/t/limits/0");
    }

    @Test
    void schemaViolationIsTheReasonAndNamesNoArgumentValue() {
        PolicyEngine engine = engine("""
                version: "1"
                tools:
                  transfer:
                    arguments:
                      type: object
                      properties:
                        amount: {type: number, maximum: 100}
                        to: {type: string, pattern: "^acct-[0-9]+$"}
                      required: [amount, to]
                      additionalProperties: false
                """);
        assertThat(engine.decide(call("transfer", Map.of("amount", 5, "to", "acct-1"))).effect()).isEqualTo(Effect.ALLOW);
        Decision tooMuch = engine.decide(call("transfer", Map.of("amount", 5000, "to", "acct-1")));
        assertThat(tooMuch.reason()).isEqualTo("arguments do not match the schema: at /amount: must be <= 100");
        Decision badTarget = engine.decide(call("transfer", Map.of("amount", 5, "to", "attacker")));
        assertThat(badTarget.reason()).isEqualTo("arguments do not match the schema: at /to: does not match pattern ^acct-[0-9]+$")
                .doesNotContain("attacker");
        assertThat(engine.decide(call("transfer", Map.of("amount", 5, "to", "acct-1", "memo", "x"))).reason())
                .isEqualTo("arguments do not match the schema: at /: property 'memo' is not allowed");
    }

    @Test
    void inputSchemaValidatesAgainstTheToolsOwnSchema() {
        PolicyEngine engine = engine("""
                version: "1"
                tools:
                  echo: {arguments: input_schema}
                """);
        Map<String, Object> schema = Map.of("type", "object",
                "properties", Map.of("message", Map.of("type", "string")),
                "required", List.of("message"),
                "$defs", Map.of());
        ToolCall ok = new ToolCall(Side.SERVER, null, "echo", Map.of("message", "hi"), null, null, schema);
        ToolCall wrongType = new ToolCall(Side.SERVER, null, "echo", Map.of("message", 42), null, null, schema);
        ToolCall unknownSchema = new ToolCall(Side.SERVER, null, "echo", Map.of("message", "hi"), null, null, null);

        assertThat(engine.decide(ok).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(wrongType).reason())
                .isEqualTo("arguments do not match the schema: at /message: expected string, got number");
        Decision failClosed = engine.decide(unknownSchema);
        assertThat(failClosed.effect()).isEqualTo(Effect.DENY);
        assertThat(failClosed.rule()).isEqualTo("/tools/echo/arguments");
    }

    @Test
    void inputSchemaFollowsReferencesAndCombinators() {
        PolicyEngine engine = engine("""
                version: "1"
                tools:
                  ship: {arguments: input_schema}
                """);
        Map<String, ?> schema = json("""
                {"type": "object",
                 "$defs": {"Address": {"type": "object", "properties": {"zip": {"type": "string", "pattern": "^[0-9]{5}$"}},
                                       "required": ["zip"]}},
                 "properties": {"to": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}]}},
                 "required": ["to"]}""");

        assertThat(engine.decide(shipCall(json("{\"to\": {\"zip\": \"12345\"}}"), schema)).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(shipCall(json("{\"to\": null}"), schema)).effect()).isEqualTo(Effect.ALLOW);
        Decision badZip = engine.decide(shipCall(json("{\"to\": {\"zip\": \"1234; rm -rf /\"}}"), schema));
        assertThat(badZip.effect()).isEqualTo(Effect.DENY);
        assertThat(badZip.rule()).isEqualTo("/tools/ship/arguments");
        assertThat(badZip.reason()).isEqualTo("arguments do not match the schema: at /to: must match at least one schema in anyOf "
                + "(anyOf/0 fails at /to/zip: does not match pattern ^[0-9]{5}$)").doesNotContain("rm -rf");
    }

    @Test
    void inputSchemaThatUsesAConstraintTheEngineCannotCheckDeniesNamingIt() {
        PolicyEngine engine = engine("""
                version: "1"
                tools:
                  ship: {arguments: input_schema}
                """);
        Map<String, ?> unsupported = json("""
                {"type": "object", "properties": {"to": {"type": "string"}}, "unevaluatedProperties": false}""");
        Map<String, ?> remote = json("""
                {"type": "object", "properties": {"to": {"$ref": "https://example.com/address.json"}}}""");
        Map<String, ?> loop = json("{\"$ref\": \"#\"}");

        Decision denied = engine.decide(shipCall(Map.of("to", "x"), unsupported));
        assertThat(denied.effect()).isEqualTo(Effect.DENY);
        assertThat(denied.rule()).isEqualTo("/tools/ship/arguments");
        assertThat(denied.reason()).isEqualTo("the tool's input schema cannot be used: /unevaluatedProperties: keyword "
                + "'unevaluatedProperties' is not supported, so the arguments cannot be validated");
        assertThat(engine.decide(shipCall(Map.of("to", "x"), remote)).reason()).isEqualTo("the tool's input schema cannot be "
                + "used: /properties/to/$ref: $ref 'https://example.com/address.json' refers outside this schema; only references "
                + "within it (#, #/$defs/name, #/definitions/name, #/...) are supported");
        assertThat(engine.decide(shipCall(Map.of(), loop)).reason()).isEqualTo("the tool's input schema cannot be used: /$ref: "
                + "loops back to '#' through $ref without descending into the value, so checking it would never end");
    }

    private static ToolCall shipCall(Map<String, ?> arguments, Map<String, ?> inputSchema) {
        return new ToolCall(Side.SERVER, null, "ship", arguments, null, null, inputSchema);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String text) {
        List<PolicyError> errors = new ArrayList<>();
        Object value = new TreeReader(errors).read(text, TreeReader.Format.JSON).toPlain();
        assertThat(errors).isEmpty();
        return (Map<String, Object>) value;
    }

    @Test
    void saysWhichToolsNeedTheirAdvertisedInputSchema() {
        PolicyEngine engine = engine("""
                version: "1"
                hide: [hidden]
                tools:
                  echo: {arguments: input_schema}
                  "e*": {}
                  off: {action: deny, arguments: input_schema}
                  hidden: {arguments: input_schema}
                servers:
                  s: {tools: {echo: {}}}
                """);
        assertThat(engine.needsInputSchema(Side.SERVER, null, "echo")).isTrue();
        assertThat(engine.needsInputSchema(Side.SERVER, null, "edit")).isFalse();
        assertThat(engine.needsInputSchema(Side.SERVER, null, "off")).as("denied before any schema").isFalse();
        assertThat(engine.needsInputSchema(Side.SERVER, null, "hidden")).isFalse();
        assertThat(engine.needsInputSchema(Side.SERVER, null, "unknown")).isFalse();
        assertThat(engine.needsInputSchema(Side.CLIENT, "s", "echo")).as("the server section's rule wins").isFalse();
        assertThat(engine.needsInputSchema(Side.CLIENT, "other", "echo")).isTrue();
    }

    @Test
    void aServerSectionKeyedByAddressWinsOverTheSelfDeclaredName() {
        PolicyEngine engine = engine("""
                version: "1"
                default: deny
                servers:
                  github: {default: allow}
                  "url:https://mcp.github.example/mcp": {default: deny, tools: {get_issue: {}}}
                  "stdio:npx -y @acme/server-files": {default: deny, tools: {read_file: {}}}
                """);
        String byAddress = engine.serverSection("github", "url:https://mcp.github.example/mcp");
        assertThat(byAddress).isEqualTo("url:https://mcp.github.example/mcp");
        assertThat(engine.decide(clientCall(byAddress, "get_issue")).rule()).isEqualTo("/servers/url:https:~1~1mcp.github.example~1mcp/tools/get_issue");
        assertThat(engine.decide(clientCall(byAddress, "delete_repo")).effect()).isEqualTo(Effect.DENY);
        assertThat(engine.serverSection("github", "url:https://evil.example/mcp"))
                .as("another address claiming the name gets the name's section").isEqualTo("github");
        assertThat(engine.serverSection("files", "stdio:npx -y @acme/server-files")).isEqualTo("stdio:npx -y @acme/server-files");
        assertThat(engine.isListed(Side.CLIENT, "stdio:npx -y @acme/server-files", "read_file")).isTrue();
        assertThat(engine.isListed(Side.CLIENT, "stdio:npx -y @acme/server-files", "write_file")).isFalse();
        assertThat(engine.serverSection("unknown", null)).isEqualTo("unknown");
    }

    @Test
    void monitorModeAllowsAndReportsWhatWouldHaveBeenDenied() {
        PolicyEngine engine = engine("""
                version: "1"
                mode: monitor
                tools:
                  rm: {action: deny, reason: "no"}
                  ls: {limits: [{counter: ls, window: minute, max: 1}]}
                """);
        Decision rm = engine.decide(call("rm", Map.of()));
        assertThat(rm).isEqualTo(new Decision(Effect.ALLOW, Effect.DENY, "/tools/rm", "no", 0));
        assertThat(rm.isMonitored()).isTrue();
        assertThat(engine.decide(call("unknown", Map.of())).wouldBe()).isEqualTo(Effect.DENY);

        assertThat(engine.decide(call("ls", Map.of())).isMonitored()).isFalse();
        Decision overLimit = engine.decide(call("ls", Map.of()));
        assertThat(overLimit.effect()).isEqualTo(Effect.ALLOW);
        assertThat(overLimit.wouldBe()).isEqualTo(Effect.DENY);
        assertThat(overLimit.retryAfterSeconds()).isEqualTo(60);
    }

    @Test
    void ruleModeOverridesThePolicyMode() {
        PolicyEngine engine = engine("""
                version: "1"
                tools:
                  new_tool: {action: deny, mode: monitor}
                  old_tool: {action: deny}
                """);
        assertThat(engine.decide(call("new_tool", Map.of())).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(call("new_tool", Map.of())).wouldBe()).isEqualTo(Effect.DENY);
        assertThat(engine.decide(call("old_tool", Map.of())).effect()).isEqualTo(Effect.DENY);
        assertThat(engine.decide(call("unlisted", Map.of())).effect()).isEqualTo(Effect.DENY);
    }

    @Test
    void listsOnlyToolsThatAreNeitherHiddenNorDeniedOutright() {
        PolicyEngine engine = PolicyEngine.of(Policies.resource("spec-example.json"), clock);
        assertThat(engine.isListed(Side.SERVER, null, "read_file")).isTrue();
        assertThat(engine.isListed(Side.SERVER, null, "run_command")).as("conditions decide per call").isTrue();
        assertThat(engine.isListed(Side.SERVER, null, "sandbox_exec_background")).isTrue();
        assertThat(engine.isListed(Side.SERVER, null, "delete_file")).isFalse();
        assertThat(engine.isListed(Side.SERVER, null, "delete_account")).isFalse();
        assertThat(engine.isListed(Side.SERVER, null, "send_email")).isFalse();
        assertThat(engine.isListed(Side.CLIENT, "github", "get_issue")).isTrue();
        assertThat(engine.isListed(Side.CLIENT, "github", "create_issue")).isFalse();
        assertThat(engine.isListed(Side.SERVER, "github", "get_issue"))
                .as("server sections apply on the client side only").isFalse();
    }

    @Test
    void serverSectionDefaultFallsBackToThePolicyDefault() {
        PolicyEngine engine = engine("""
                version: "1"
                default: allow
                servers:
                  strict: {default: deny, tools: {ok: {}}}
                  loose: {hide: [secret]}
                """);
        assertThat(engine.decide(clientCall("strict", "other")).effect()).isEqualTo(Effect.DENY);
        assertThat(engine.decide(clientCall("strict", "ok")).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(clientCall("loose", "other")).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(clientCall("loose", "secret")).isHidden()).isTrue();
        assertThat(engine.decide(clientCall("elsewhere", "secret")).effect()).isEqualTo(Effect.ALLOW);
    }

    @Test
    void oversizedArgumentsFailRequireAndMatchDenyIf() {
        PolicyEngine engine = PolicyEngine.of(Policies.parse("""
                version: "1"
                tools:
                  a: {require: [{path: q, op: regex, value: "^[a-z]+$"}]}
                  b: {deny_if: [{path: q, op: contains, value: "DROP"}]}
                """), clock, new EngineOptions(RateLimitStore.inMemory(), 16, EngineOptions.StoreFail.DENY));
        String big = "a".repeat(17);
        assertThat(engine.decide(call("a", Map.of("q", "abc"))).effect()).isEqualTo(Effect.ALLOW);
        Decision a = engine.decide(call("a", Map.of("q", big)));
        assertThat(a.effect()).isEqualTo(Effect.DENY);
        assertThat(a.rule()).isEqualTo("/tools/a/require/0");
        assertThat(a.reason()).isEqualTo("required condition not met: q regex \"^[a-z]+$\" (args.q: a string longer than 16 characters cannot be checked)");
        assertThat(a.argument()).isEqualTo("args.q");
        assertThat(engine.decide(call("b", Map.of("q", "abc"))).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(call("b", Map.of("q", big))).rule()).isEqualTo("/tools/b/deny_if/0");
    }

    @Test
    void defaultReasonsDescribeTheConditionWhenTheRuleHasNone() {
        PolicyEngine engine = engine("""
                version: "1"
                tools:
                  t:
                    require: [{path: args.mode, op: in, value: [read, list]}]
                    deny_if: [{path: target, op: regex, value: "^/etc"}]
                """);
        assertThat(engine.decide(call("t", Map.of("mode", "write"))).reason())
                .isEqualTo("required condition not met: args.mode in [\"read\",\"list\"]");
        assertThat(engine.decide(call("t", Map.of("mode", "read", "target", "/etc/passwd"))).reason())
                .isEqualTo("denied by condition: target regex \"^/etc\"");
    }

    @Test
    void rebuildingTheEngineWithTheSameStoreKeepsCounters() {
        String policy = """
                version: "1"
                tools:
                  t: {limits: [{counter: shared, window: minute, max: 2}]}
                """;
        PolicyEngine first = engine(policy);
        first.decide(call("t", Map.of()));
        first.decide(call("t", Map.of()));
        PolicyEngine reloaded = PolicyEngine.of(Policies.parse(policy.replace("max: 2", "max: 3")), clock,
                EngineOptions.withStore(first.store()));
        assertThat(reloaded.decide(call("t", Map.of())).effect()).isEqualTo(Effect.ALLOW);
        assertThat(reloaded.decide(call("t", Map.of())).effect()).as("2 + 1 of 3 used").isEqualTo(Effect.DENY);
        clock.advance(Duration.ofMinutes(1));
        assertThat(reloaded.decide(call("t", Map.of())).effect()).isEqualTo(Effect.ALLOW);
    }
}
