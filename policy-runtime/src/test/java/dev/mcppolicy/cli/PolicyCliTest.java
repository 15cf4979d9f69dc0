package dev.mcppolicy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.policy.PolicyParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyCliTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return PolicyCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private Path specExample() throws IOException {
        try (var in = getClass().getResourceAsStream("/policies/spec-example.json")) {
            return Files.write(dir.resolve("mcp-policy.json"), in.readAllBytes());
        }
    }

    @Test
    void checkAcceptsAValidPolicy() throws IOException {
        Path policy = specExample();
        assertThat(run("check", policy.toString())).isZero();
        assertThat(out()).startsWith(policy + ": OK (4 tool rules, 1 server sections, default deny, mode enforce, sha256 ");
    }

    @Test
    void checkWarnsAfterTheOkLineWhenDenyIfAloneGuardsAnExecuteTool() throws Exception {
        Path policy = write("weak.yaml", """
                version: "1"
                tools:
                  read_file: {}
                  run_command:
                    deny_if: [{path: command, op: contains, value: rm -rf}]
                """);
        assertThat(run("check", policy.toString())).isZero();
        String sha256 = PolicyParser.parse(policy).sha256();
        assertThat(out()).isEqualTo(String.join(System.lineSeparator(),
                policy + ": OK (2 tool rules, default deny, mode enforce, sha256 " + sha256 + ")",
                "WARN /tools/run_command/deny_if: 'run_command' looks like it runs commands and only deny_if guards it;"
                        + " a deny list misses what it does not name (another spelling, quoting, or the value split across an array),"
                        + " so add \"require\" (an allow list of what may run) or \"arguments\": \"input_schema\"",
                ""));
        assertThat(err()).isEmpty();
    }

    @Test
    void checkPrintsNoWarningForACleanPolicy() throws IOException {
        Path policy = specExample();
        assertThat(run("check", policy.toString())).isZero();
        assertThat(out()).doesNotContain("WARN").hasLineCount(1);
    }

    @Test
    void checkListsEveryErrorWithItsPositionAndExitsOne() throws IOException {
        Path policy = write("bad.yaml", """
                version: "1"
                default: maybe
                tools:
                  t: {limits: [{window: fortnight, max: 0}]}
                """);
        assertThat(run("check", policy.toString())).isEqualTo(1);
        assertThat(out()).isEqualTo(String.join(System.lineSeparator(),
                policy + ": 3 errors",
                "  " + policy + ":2:10: /default: expected one of allow|deny, got the string \"maybe\"",
                "  " + policy + ":4:25: /tools/t/limits/0/window: expected second|minute|hour|day, a whole number of seconds (60),"
                        + " or a duration like 30s, 5m, 1h, 1d; got the string \"fortnight\"",
                "  " + policy + ":4:41: /tools/t/limits/0/max: expected a whole number of calls from 1 to 2147483647, got the number 0",
                ""));
    }

    @Test
    void checkReportsAMissingFile() {
        assertThat(run("check", dir.resolve("nope.json").toString())).isEqualTo(1);
        assertThat(out()).contains("nope.json: 1 error").contains("file not found");
    }

    @Test
    void explainPrintsDecisionRuleAndReason() throws IOException {
        Path policy = specExample();
        assertThat(run("explain", policy.toString(), "--tool", "run_command", "--args", "{\"command\":\"ls -la && rm -rf /\"}",
                "--client", "alice")).isZero();
        assertThat(out()).isEqualTo(String.join(System.lineSeparator(),
                "decision: DENY",
                "rule:     /tools/run_command/deny_if/0",
                "argument: args.command",
                "reason:   run_command is limited to read-only commands",
                "caller:   Policy denied tool 'run_command': run_command is limited to read-only commands"
                        + " [rule /tools/run_command/deny_if/0]",
                ""));
    }

    @Test
    void explainNamesTheLeafThatMatchedAndWhatCannotBeChecked() throws IOException {
        Path policy = specExample();
        assertThat(run("explain", policy.toString(), "--tool", "run_command", "--args", "{\"command\":[\"cat x\",\"rm -rf /\"]}")).isZero();
        assertThat(out()).isEqualTo(String.join(System.lineSeparator(),
                "decision: DENY",
                "rule:     /tools/run_command/require/0",
                "argument: args.command.1",
                "reason:   run_command is limited to read-only commands (at args.command.1)",
                "caller:   Policy denied tool 'run_command': run_command is limited to read-only commands (at args.command.1)"
                        + " [rule /tools/run_command/require/0]",
                ""));
    }

    @Test
    void explainUsesServerSectionsWithServer() throws IOException {
        Path policy = specExample();
        assertThat(run("explain", policy.toString(), "--tool", "get_issue", "--server", "github")).isZero();
        assertThat(out()).startsWith("decision: ALLOW" + System.lineSeparator() + "rule:     /servers/github/tools/get_issue");
    }

    @Test
    void checkAndExplainSayThroughWhichChannelAHeldCallIsAsked() throws IOException {
        Path policy = write("held.json", """
                { "version": "1",
                  "tools": {
                    "run_command": { "action": "require_approval", "approval": { "via": "elicitation", "timeout": "2m" } },
                    "wire_money": { "action": "require_approval" }
                  } }
                """);
        assertThat(run("check", policy.toString())).isZero();
        assertThat(out()).contains(System.lineSeparator() + "APPROVAL /tools/run_command: via elicitation (the calling MCP client's"
                + " user, when the client declared elicitation; listed on the admin channel too, and asked there alone otherwise),"
                + " timeout 2m").doesNotContain("/tools/wire_money");
        out.reset();
        assertThat(run("explain", policy.toString(), "--tool", "run_command")).isZero();
        assertThat(out()).contains("decision: REQUIRE_APPROVAL").contains("approval: via elicitation (").contains("timeout 2m");
        out.reset();
        assertThat(run("explain", policy.toString(), "--tool", "run_command", "--server", "github")).isZero();
        assertThat(out()).contains("approval: via admin (elicitation asks the client of a server-side call;"
                + " on the client side it is ignored), timeout 2m");
        out.reset();
        assertThat(run("explain", policy.toString(), "--tool", "wire_money")).isZero();
        assertThat(out()).contains("approval: via admin (the admin endpoint, page and approvals command), timeout 5m");
    }

    @Test
    void explainRejectsBadArguments() throws IOException {
        Path policy = specExample();
        assertThat(run("explain", policy.toString(), "--tool", "x", "--args", "[1]")).isEqualTo(2);
        assertThat(err()).startsWith("--args must be a JSON object, got an array");
        assertThat(run("explain", policy.toString())).isEqualTo(2);
        assertThat(err()).contains("explain needs --tool T, --resource URI or --prompt P");
        assertThat(run("explain", policy.toString(), "--tool", "x", "--prompt", "p")).isEqualTo(2);
        assertThat(err()).contains("explain takes one of --tool, --resource and --prompt");
        assertThat(run("explain", policy.toString(), "--tool", "x", "--colour", "red")).isEqualTo(2);
        assertThat(err()).contains("unknown option --colour");
    }

    private static final String RESOURCES_POLICY = """
            version: "1"
            tools: {run_command: {result: {max_bytes: 65536, redact: [{regex: "AKIA[0-9A-Z]{16}", name: aws-key}]}}}
            resources:
              "file:///public/*": {}
              "file:///etc/*": {action: deny, reason: system files are off limits}
            resource_default: deny
            prompts:
              summarize: {require: [{path: args.style, op: in, value: [short, long]}]}
            """;

    @Test
    void checkCountsResourceAndPromptRules() throws IOException {
        Path policy = write("p.yaml", RESOURCES_POLICY);
        assertThat(run("check", policy.toString())).isZero();
        assertThat(out()).startsWith(policy + ": OK (1 tool rules, 2 resource rules, 1 prompt rules, default deny");
    }

    @Test
    void explainDecidesAResourceByItsNormalizedUriAndAPromptByItsArguments() throws IOException {
        Path policy = write("p.yaml", RESOURCES_POLICY);
        assertThat(run("explain", policy.toString(), "--resource", "file:///public/%2e%2e/etc/passwd")).isZero();
        assertThat(out()).isEqualTo(String.join(System.lineSeparator(),
                "matched:  file:///etc/passwd",
                "decision: DENY",
                "rule:     /resources/file:~1~1~1etc~1*",
                "reason:   system files are off limits",
                "caller:   Policy denied resource 'file:///public/%2e%2e/etc/passwd': system files are off limits"
                        + " [rule /resources/file:~1~1~1etc~1*]",
                ""));
        out.reset();
        assertThat(run("explain", policy.toString(), "--prompt", "summarize", "--args", "{\"style\": 5}")).isZero();
        assertThat(out()).contains("decision: DENY", "rule:     /prompts/summarize/require/0");
        out.reset();
        assertThat(run("explain", policy.toString(), "--tool", "run_command")).isZero();
        assertThat(out()).contains("result:   judged by /tools/run_command/result (max_bytes 65536, redacts aws-key)");
    }

    @Test
    void testCasesMayNameAResourceOrAPrompt() throws IOException {
        Path policy = write("p.yaml", RESOURCES_POLICY);
        Path cases = write("cases.yaml", """
                - {name: public, resource: "file:///public/a.txt", expect: ALLOW}
                - {name: traversal, resource: "file:///public/%2e%2e/etc/passwd", expect: {decision: DENY, rule: "/resources/file:~1~1~1etc~1*"}}
                - {name: unnamed, resource: "file:///home/x", expect: {decision: DENY, reason: "no policy rule allows this resource (resource_default: deny)"}}
                - {name: short, prompt: summarize, args: {style: short}, expect: ALLOW}
                - {name: epic, prompt: summarize, args: {style: epic}, expect: DENY}
                """);
        assertThat(run("test", policy.toString(), cases.toString())).as(out() + err()).isZero();
        assertThat(out()).endsWith("5 cases, 0 failed" + System.lineSeparator());
        Path bad = write("bad.yaml", "- {tool: a, resource: b, expect: ALLOW}\n");
        assertThat(run("test", policy.toString(), bad.toString())).isEqualTo(2);
        assertThat(err()).contains("names both 'tool' and 'resource'; a call is one of them");
    }

    private static final String CALLER_POLICY = """
            version: "1"
            default: deny
            tools:
              run_command:
                require: [{path: caller.roles, op: contains, value: ops}]
              search:
                limits: [{max: 1, window: minute, scope: user}]
            """;

    @Test
    void explainAndTestTakeACaller() throws IOException {
        Path policy = write("p.yaml", CALLER_POLICY);
        assertThat(run("explain", policy.toString(), "--tool", "run_command", "--caller",
                "{\"sub\":\"alice\",\"roles\":[\"ops\"],\"claims\":{\"team\":\"blue\"},\"verified\":true}")).isZero();
        assertThat(out()).contains("decision: ALLOW", "rule:     /tools/run_command");
        out.reset();
        assertThat(run("explain", policy.toString(), "--tool", "run_command", "--caller", "{\"sub\":\"bob\",\"roles\":[\"devops\"]}")).isZero();
        assertThat(out()).contains("decision: DENY", "rule:     /tools/run_command/require/0", "argument: caller.roles");
        out.reset();
        assertThat(run("explain", policy.toString(), "--tool", "run_command")).isZero();
        assertThat(out()).contains("decision: DENY");
        assertThat(run("explain", policy.toString(), "--tool", "run_command", "--caller", "{\"sub\":\"x\",\"verified\":false}")).isEqualTo(2);
        assertThat(err()).contains("--caller: an unverified caller has no sub, name, roles or claims");
        assertThat(run("explain", policy.toString(), "--tool", "run_command", "--caller", "{\"roles\":\"ops\"}")).isEqualTo(2);
        assertThat(err()).contains("--caller/roles: expected an array of strings");

        Path cases = write("cases.yaml", """
                - {name: ops may run, tool: run_command, caller: {sub: alice, roles: [ops]}, expect: ALLOW}
                - {name: devops is not ops, tool: run_command, caller: {sub: bob, roles: [devops]}, expect: DENY}
                - {name: nobody verified, tool: run_command, caller: {verified: false}, expect: DENY}
                - name: one search a minute per user
                  tool: search
                  caller: {sub: alice}
                  steps:
                    - {expect: ALLOW}
                    - {expect: DENY}
                    - {caller: {sub: bob}, expect: ALLOW}
                    - {caller: {verified: false}, expect: ALLOW}
                    - {caller: {verified: false}, expect: DENY}
                """);
        out.reset();
        assertThat(run("test", policy.toString(), cases.toString())).as(out() + err()).isZero();
        assertThat(out()).endsWith("4 cases, 0 failed" + System.lineSeparator());
        Path bad = write("bad.yaml", "- {tool: search, caller: {sub: 5}, expect: ALLOW}\n");
        assertThat(run("test", policy.toString(), bad.toString())).isEqualTo(2);
        assertThat(err()).contains("/caller/sub: expected a string");
    }

    @Test
    void testRunsCasesAndSequencesOnAVirtualClock() throws IOException {
        Path policy = specExample();
        Path cases = write("cases.yaml", """
                cases:
                  - name: ls is allowed
                    tool: run_command
                    args: {command: ls -la}
                    expect: ALLOW
                  - name: rm -rf is denied by deny_if
                    tool: run_command
                    args: {command: "ls && rm -rf /"}
                    expect: {decision: DENY, rule: /tools/run_command/deny_if/0}
                  - name: ten per minute per client
                    tool: run_command
                    client: alice
                    args: {command: ls}
                    steps:
                      - {repeat: 10, expect: ALLOW}
                      - {expect: {decision: DENY, rule: /tools/run_command/limits/0, retry_after: 60}}
                      - {client: bob, expect: ALLOW}
                      - {at: 59s, expect: DENY}
                      - {at: 60s, expect: ALLOW}
                """);
        assertThat(run("test", policy.toString(), cases.toString())).isZero();
        assertThat(out()).isEqualTo(String.join(System.lineSeparator(),
                "PASS ls is allowed",
                "PASS rm -rf is denied by deny_if",
                "PASS ten per minute per client",
                "3 cases, 0 failed",
                ""));
    }

    @Test
    void testChecksTheArgumentLeafThatDecided() throws IOException {
        Path policy = specExample();
        Path cases = write("cases.yaml", """
                cases:
                  - name: an argv item is refused
                    tool: run_command
                    args: {command: [cat x, rm -rf /]}
                    expect: {decision: DENY, rule: /tools/run_command/require/0, arg: args.command.1}
                  - name: the wrong leaf
                    tool: run_command
                    args: {command: [cat x, rm -rf /]}
                    expect: {decision: DENY, arg: args.command.0}
                """);
        assertThat(run("test", policy.toString(), cases.toString())).isEqualTo(1);
        assertThat(out()).isEqualTo(String.join(System.lineSeparator(),
                "PASS an argv item is refused",
                "FAIL the wrong leaf",
                "     expected DENY at args.command.0, got DENY by /tools/run_command/require/0 at args.command.1 reason"
                        + " \"run_command is limited to read-only commands (at args.command.1)\"",
                "2 cases, 1 failed",
                ""));
    }

    @Test
    void testExplainsEachFailureAndExitsWithTheFailureCount() throws IOException {
        Path policy = specExample();
        Path cases = write("cases.json", """
                [
                  {"name": "wrong decision", "tool": "delete_file", "expect": "ALLOW"},
                  {"name": "wrong rule", "tool": "send_email", "expect": {"decision": "DENY", "rule": "/tools/send_email"}},
                  {"name": "burst", "tool": "run_command", "args": {"command": "ls"}, "client": "c",
                   "steps": [{"repeat": 12, "expect": "ALLOW"}]},
                  {"name": "fine", "tool": "read_file", "expect": "ALLOW"}
                ]
                """);
        assertThat(run("test", policy.toString(), cases.toString())).isEqualTo(3);
        assertThat(out()).isEqualTo(String.join(System.lineSeparator(),
                "FAIL wrong decision",
                "     expected ALLOW, got DENY by /tools/delete_* reason \"destructive tools are disabled\"",
                "FAIL wrong rule",
                "     expected DENY by /tools/send_email, got DENY by (default) reason \"no policy rule allows this tool (default: deny)\"",
                "FAIL burst",
                "     step 0 (call 11 of 12) at +0s: expected ALLOW, got DENY by /tools/run_command/limits/0 reason"
                        + " \"rate limit exceeded: counter 'run_command_rate' allows 10 per 1m, scope client\" retry after 60s",
                "PASS fine",
                "4 cases, 3 failed",
                ""));
    }

    @Test
    void testNamesALimitWithoutACounterByItsRuleAndSettings() throws IOException {
        Path policy = write("policy.yaml", """
                version: "1"
                tools:
                  search: {limits: [{window: minute, max: 2, scope: client}]}
                """);
        Path cases = write("cases.yaml", """
                cases:
                  - name: two per minute
                    tool: search
                    client: alice
                    steps:
                      - {repeat: 2, expect: ALLOW}
                      - {expect: {decision: DENY, rule: /tools/search/limits/0, reason: "counter 'tools/search:2/1m/client/sliding'"}}
                  - name: a wrong expectation prints the reason
                    tool: search
                    client: bob
                    steps:
                      - {repeat: 3, expect: ALLOW}
                """);
        assertThat(run("test", policy.toString(), cases.toString())).isEqualTo(1);
        assertThat(out()).isEqualTo(String.join(System.lineSeparator(),
                "PASS two per minute",
                "FAIL a wrong expectation prints the reason",
                "     step 0 (call 3 of 3) at +0s: expected ALLOW, got DENY by /tools/search/limits/0 reason"
                        + " \"rate limit exceeded: counter 'tools/search:2/1m/client/sliding' allows 2 per 1m, scope client\" retry after 60s",
                "2 cases, 1 failed",
                ""));
    }

    @Test
    void testRejectsAMalformedCasesFile() throws IOException {
        Path policy = specExample();
        Path cases = write("cases.yaml", """
                cases:
                  - {tool: x, expect: MAYBE}
                """);
        assertThat(run("test", policy.toString(), cases.toString())).isEqualTo(2);
        assertThat(err()).contains("/cases/0/expect: expected ALLOW, DENY or REQUIRE_APPROVAL");
    }

    @Test
    void unknownCommandPrintsUsage() {
        assertThat(run("frobnicate")).isEqualTo(2);
        assertThat(err()).contains("unknown command 'frobnicate'").contains("usage:");
        assertThat(run()).isEqualTo(2);
    }
}
