package dev.mcppolicy.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every message a policy author can get, with its pointer and position (SPEC §3, issue 2 §2). */
class PolicyParserErrorsTest {
    private static final String TOP_KEYS = "expected one of version, default, mode, hide, all_tools, tools, servers, resources, prompts,"
            + " resource_default, prompt_default, pin, pins, pin_new, identity";
    private static final String RULE_KEYS = "expected one of action, reason, require, deny_if, limits, arguments, approval, mode, result";
    private static final String LIMIT_KEYS = "expected one of counter, window, max, scope, algorithm";
    private static final String CONDITION_KEYS = "expected one of path, op, value";
    private static final String WINDOW = "expected second|minute|hour|day, a whole number of seconds (60), or a duration "
            + "like 30s, 5m, 1h, 1d; got ";
    private static final String PATH = "expected a dot path into the arguments like \"command\" or \"options.0.name\", got ";

    @Test
    void reportsEveryErrorOfAFileAtOnceInDocumentOrder() {
        String policy = """
                {
                  "version": "2",
                  "defualt": "allow",
                  "mode": "watch",
                  "hide": ["ok", 7],
                  "all_tools": {"limits": [{"counter": "all", "window": "minute", "max": 600}]},
                  "tools": {
                    "run_command": {
                      "acton": "allow",
                      "require": [{"path": "command", "op": "regex", "value": "(unclosed"}],
                      "deny_if": [{"path": "", "op": "lt", "value": "ten"}],
                      "limits": [{"counter": "all", "window": "hour", "max": 600},
                                 {"window": "fortnight", "max": 0}],
                      "approval": {"timeout": "10m"}
                    },
                    "delete_*": {"action": "deny"},
                    "delete_?": {"action": "deny"}
                  }
                }
                """;

        PolicyException thrown = catchThrowableOfType(PolicyException.class,
                () -> PolicyParser.parse(policy, PolicyParser.Format.JSON, "policy.json"));

        assertThat(thrown.errors()).containsExactly(
                new PolicyError("/version", 2, 14, "unsupported version the string \"2\"; expected \"1\""),
                new PolicyError("/defualt", 3, 14, "unknown key 'defualt' (did you mean 'default'?); " + TOP_KEYS),
                new PolicyError("/mode", 4, 11, "expected one of enforce|monitor, got the string \"watch\""),
                new PolicyError("/hide/1", 5, 18, "expected a tool name or glob, got the number 7"),
                new PolicyError("/tools/run_command/acton", 9, 16, "unknown key 'acton' (did you mean 'action'?); " + RULE_KEYS),
                new PolicyError("/tools/run_command/require/0/value", 10, 63,
                        "invalid regular expression (RE2 syntax): missing closing )"),
                new PolicyError("/tools/run_command/deny_if/0/path", 11, 28, PATH + "the string \"\""),
                new PolicyError("/tools/run_command/deny_if/0/value", 11, 53, "op 'lt' takes a number, got the string \"ten\""),
                new PolicyError("/tools/run_command/limits/0", 12, 18, "counter 'all' is declared differently at "
                        + "/all_tools/limits/0 (600 per 1m, scope global, sliding vs 600 per 1h, scope global, sliding); "
                        + "limits sharing a counter must agree on window, max, scope and algorithm"),
                new PolicyError("/tools/run_command/limits/1/window", 13, 29, WINDOW + "the string \"fortnight\""),
                new PolicyError("/tools/run_command/limits/1/max", 13, 49,
                        "expected a whole number of calls from 1 to 2147483647, got the number 0"),
                new PolicyError("/tools/run_command/approval", 14, 19,
                        "'approval' only applies to a rule whose action is require_approval"),
                new PolicyError("/tools/delete_?", 17, 17, "glob 'delete_?' ties with glob 'delete_*': both have the "
                        + "literal prefix 'delete_', so neither takes precedence; make one prefix longer or merge the rules"));
        assertThat(thrown.getStackTrace()).isEmpty();
        assertThat(thrown.source()).isEqualTo("policy.json");
        assertThat(thrown.getMessage()).startsWith("policy.json: 13 errors" + System.lineSeparator()
                + "  /version (line 2, column 14): unsupported version the string \"2\"; expected \"1\"" + System.lineSeparator()
                + "  /defualt (line 3, column 14): unknown key");
    }

    @Test
    void aPolicyExceptionCarriesNoStackTrace() {
        PolicyException thrown = new PolicyException("p.json", List.of(new PolicyError("", 0, 0, "x")));

        assertThat(thrown.getStackTrace()).isEmpty();
        assertThat(thrown.getCause()).isNull();
        assertThat(thrown.getSuppressed()).isEmpty();
        assertThat(thrown.getMessage()).isEqualTo("p.json: 1 error" + System.lineSeparator() + "  (document): x");
    }

    @Test
    void describesAnErrorWithItsPointerAndPosition() {
        assertThat(new PolicyError("/tools/x/limits/0/window", 9, 47, "expected ...").toString())
                .isEqualTo("/tools/x/limits/0/window (line 9, column 47): expected ...");
        assertThat(new PolicyError("", 1, 1, "empty").toString()).isEqualTo("(document) (line 1, column 1): empty");
        assertThat(new PolicyError("/a", 0, 0, "no position").toString()).isEqualTo("/a: no position");
    }

    // --- unknown keys, at every level ---

    @Test
    void rejectsAnUnknownTopLevelKeySuggestingTheClosestOne() {
        assertThat(only("{\"version\": \"1\", \"tool\": {}}"))
                .isEqualTo("/tool (line 1, column 26): unknown key 'tool' (did you mean 'tools'?); " + TOP_KEYS);
    }

    @Test
    void suggestsNothingWhenNoKeyIsClose() {
        assertThat(only("{\"version\": \"1\", \"rules\": {}}"))
                .isEqualTo("/rules (line 1, column 27): unknown key 'rules'; " + TOP_KEYS);
    }

    @Test
    void rejectsAnUnknownRuleKey() {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"deny-if\": []}}}"))
                .isEqualTo("/tools/t/deny-if (line 1, column 45): unknown key 'deny-if' (did you mean 'deny_if'?); " + RULE_KEYS);
    }

    @Test
    void rejectsAnUnknownLimitKey() {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"limits\": [{\"window\": 60, \"max\": 1, \"scop\": \"global\"}]}}}"))
                .isEqualTo("/tools/t/limits/0/scop (line 1, column 78): unknown key 'scop' (did you mean 'scope'?); " + LIMIT_KEYS);
    }

    @Test
    void rejectsAnUnknownConditionKey() {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"require\": [{\"path\": \"a\", \"op\": \"exists\", \"vlaue\": true}]}}}"))
                .isEqualTo("/tools/t/require/0/vlaue (line 1, column 85): unknown key 'vlaue' (did you mean 'value'?); "
                        + CONDITION_KEYS);
    }

    @Test
    void rejectsAnUnknownServerSectionKey() {
        assertThat(only("{\"version\": \"1\", \"servers\": {\"gh\": {\"tool\": {}}}}"))
                .isEqualTo("/servers/gh/tool (line 1, column 45): unknown key 'tool' (did you mean 'tools'?); "
                        + "expected one of default, hide, tools, resources, prompts, resource_default, prompt_default, pin, pin_new");
    }

    @Test
    void rejectsAnUnknownApprovalKey() {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"action\": \"require_approval\", \"approval\": {\"timout\": \"1m\"}}}}"))
                .isEqualTo("/tools/t/approval/timout (line 1, column 87): unknown key 'timout' (did you mean 'timeout'?); "
                        + "expected one of timeout, via");
    }

    @Test
    void rejectsAnUnknownAllToolsKey() {
        assertThat(only("{\"version\": \"1\", \"all_tools\": {\"limit\": []}}"))
                .isEqualTo("/all_tools/limit (line 1, column 41): unknown key 'limit' (did you mean 'limits'?); "
                        + "expected one of limits");
    }

    @Test
    void escapesKeysInPointers() {
        assertThat(only("{\"version\": \"1\", \"servers\": {\"a/b~c\": {\"x\": 1}}}"))
                .startsWith("/servers/a~1b~0c/x (line 1, column 45): unknown key 'x'; ");
    }

    // --- duplicate keys ---

    @Test
    void rejectsADuplicateKeyInJsonAtTheSecondOccurrence() {
        assertThat(only("{\"version\": \"1\",\n \"default\": \"deny\",\n \"default\": \"allow\"}"))
                .isEqualTo("/default (line 3, column 2): duplicate key 'default' (first at line 2)");
    }

    @Test
    void rejectsADuplicateKeyInYaml() {
        assertThat(onlyYaml("version: \"1\"\ntools:\n  t:\n    action: deny\n    action: allow\n"))
                .isEqualTo("/tools/t/action (line 5, column 5): duplicate key 'action' (first at line 4)");
    }

    @Test
    void rejectsADuplicateToolRule() {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {}, \"t\": {\"action\": \"deny\"}}}"))
                .isEqualTo("/tools/t (line 1, column 37): duplicate key 't' (first at line 1)");
    }

    // --- wrong types ---

    @ParameterizedTest
    @CsvSource(delimiterString = " => ", value = {
        "\"default\": 5 => /default (line 1, column 29): expected one of allow|deny, got the number 5",
        "\"default\": \"require_approval\" => /default (line 1, column 29): expected one of allow|deny, got the string \"require_approval\"",
        "\"mode\": null => /mode (line 1, column 26): expected one of enforce|monitor, got null",
        "\"hide\": \"delete_*\" => /hide (line 1, column 26): expected an array of tool names or globs, got the string \"delete_*\"",
        "\"hide\": [\"\"] => /hide/0 (line 1, column 27): expected a tool name or glob, got the string \"\"",
        "\"all_tools\": [] => /all_tools (line 1, column 31): expected an object with 'limits', got an array",
        "\"all_tools\": {\"limits\": {}} => /all_tools/limits (line 1, column 42): expected an array of limits {counter, window, max, scope, algorithm}, got an object",
        "\"tools\": [\"read_file\"] => /tools (line 1, column 27): expected an object of rules keyed by tool name or glob, got an array",
        "\"tools\": {\"t\": \"allow\"} => /tools/t (line 1, column 33): expected a rule object ({} allows the tool), got the string \"allow\"",
        "\"tools\": {\"\": {}} => /tools/ (line 1, column 32): a tool name or glob cannot be empty",
        "\"tools\": {\"t\": {\"action\": \"permit\"}} => /tools/t/action (line 1, column 44): expected one of allow|deny|require_approval, got the string \"permit\"",
        "\"tools\": {\"t\": {\"reason\": 42}} => /tools/t/reason (line 1, column 44): expected a string, got the number 42",
        "\"tools\": {\"t\": {\"mode\": true}} => /tools/t/mode (line 1, column 42): expected one of enforce|monitor, got true",
        "\"tools\": {\"t\": {\"require\": {}}} => /tools/t/require (line 1, column 45): expected an array of conditions {path, op, value}, got an object",
        "\"tools\": {\"t\": {\"deny_if\": [\"rm\"]}} => /tools/t/deny_if/0 (line 1, column 46): expected a condition {path, op, value}, got the string \"rm\"",
        "\"tools\": {\"t\": {\"limits\": [10]}} => /tools/t/limits/0 (line 1, column 45): expected a limit {counter, window, max, scope, algorithm}, got the number 10",
        "\"tools\": {\"t\": {\"arguments\": 1}} => /tools/t/arguments (line 1, column 47): expected a JSON Schema object or \"input_schema\", got the number 1",
        "\"tools\": {\"t\": {\"arguments\": \"schema\"}} => /tools/t/arguments (line 1, column 47): expected a JSON Schema object or \"input_schema\", got the string \"schema\"",
        "\"tools\": {\"t\": {\"action\": \"require_approval\", \"approval\": \"10m\"}} => /tools/t/approval (line 1, column 76): expected an object like {\"timeout\": \"10m\"}, got the string \"10m\"",
        "\"servers\": [\"github\"] => /servers (line 1, column 29): expected an object keyed by server name (serverInfo.name), got an array",
        "\"servers\": {\"github\": true} => /servers/github (line 1, column 40): expected an object with default, hide, tools, resources and prompts, got true",
        "\"servers\": {\"github\": {\"default\": \"block\"}} => /servers/github/default (line 1, column 52): expected one of allow|deny, got the string \"block\"",
    })
    void rejectsAValueOfTheWrongType(String member, String expected) {
        assertThat(only("{\"version\": \"1\", " + member + "}")).isEqualTo(expected);
    }

    @Test
    void abbreviatesLongValuesInMessages() {
        String reason = "x".repeat(100);

        assertThat(only("{\"version\": \"1\", \"mode\": \"" + reason + "\"}"))
                .isEqualTo("/mode (line 1, column 26): expected one of enforce|monitor, got the string \""
                        + "x".repeat(57) + "...\"");
    }

    @ParameterizedTest
    @CsvSource(delimiterString = " => ", value = {
        "\"counter\": \"\" => /tools/t/limits/0/counter (line 1, column 81): expected a counter name, got the string \"\"",
        "\"counter\": 3 => /tools/t/limits/0/counter (line 1, column 81): expected a counter name, got the number 3",
        "\"scope\": \"users\" => /tools/t/limits/0/scope (line 1, column 79): expected one of global|session|client|grant|user, got the string \"users\"",
        "\"algorithm\": \"leaky\" => /tools/t/limits/0/algorithm (line 1, column 83): expected one of sliding|fixed|token_bucket, got the string \"leaky\"",
    })
    void rejectsABadLimitSetting(String member, String expected) {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"limits\": [{\"window\": 60, \"max\": 1, " + member + "}]}}}"))
                .isEqualTo(expected);
    }

    // --- max ---

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0                    | the number 0",
        "-1                   | the number -1",
        "1.5                  | the number 1.5",
        "\"10\"               | the string \"10\"",
        "null                 | null",
        "2147483648           | the number 2147483648",
        "1e300                | the number 1.0E300",
        "18446744073709551616 | the number 18446744073709551616",
    })
    void rejectsAMaxThatIsNotAWholeNumberOfCallsInRange(String max, String got) {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"limits\": [{\"window\": 60, \"max\": " + max + "}]}}}"))
                .isEqualTo("/tools/t/limits/0/max (line 1, column 67): expected a whole number of calls from 1 to 2147483647, got "
                        + got);
    }

    @Test
    void acceptsTheLargestMax() throws Exception {
        Policy policy = parse("{\"version\": \"1\", \"all_tools\": {\"limits\": [{\"window\": 60, \"max\": 2147483647}]}}");

        assertThat(policy.allToolsLimits().get(0).max()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void acceptsAMaxWrittenWithAZeroFraction() throws Exception {
        Policy policy = parse("{\"version\": \"1\", \"all_tools\": {\"limits\": [{\"window\": 60, \"max\": 10.0}]}}");

        assertThat(policy.allToolsLimits().get(0).max()).isEqualTo(10);
    }

    @Test
    void requiresWindowAndMax() {
        assertThat(all("{\"version\": \"1\", \"all_tools\": {\"limits\": [{\"counter\": \"c\"}]}}")).containsExactly(
                "/all_tools/limits/0 (line 1, column 43): missing required key 'window'",
                "/all_tools/limits/0 (line 1, column 43): missing required key 'max'");
    }

    // --- windows ---

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"second\" | PT1S", "\"minute\" | PT1M", "\"hour\" | PT1H", "\"day\" | PT24H",
        "60 | PT1M", "\"60\" | PT1M", "1 | PT1S", "60.0 | PT1M",
        "\"30s\" | PT30S", "\"5m\" | PT5M", "\"1h\" | PT1H", "\"1d\" | PT24H", "\"90m\" | PT1H30M",
    })
    void acceptsEveryWindowForm(String window, String expected) throws Exception {
        Policy policy = parse("{\"version\": \"1\", \"all_tools\": {\"limits\": [{\"window\": " + window + ", \"max\": 1}]}}");

        assertThat(policy.allToolsLimits().get(0).window()).hasToString(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"fortnight\" | the string \"fortnight\"",
        "\"\"          | the string \"\"",
        "\"Minute\"    | the string \"Minute\"",
        "\"5w\"        | the string \"5w\"",
        "\"5M\"        | the string \"5M\"",
        "\"5 m\"       | the string \"5 m\"",
        "\"m\"         | the string \"m\"",
        "\"0s\"        | the string \"0s\"",
        "\"0\"         | the string \"0\"",
        "\"-5s\"       | the string \"-5s\"",
        "\"1.5h\"      | the string \"1.5h\"",
        "0             | the number 0",
        "-60           | the number -60",
        "1.5           | the number 1.5",
        "true          | true",
        "null          | null",
        "[60]          | an array",
    })
    void rejectsABadWindow(String window, String got) {
        assertThat(only("{\"version\": \"1\", \"all_tools\": {\"limits\": [{\"window\": " + window + ", \"max\": 1}]}}"))
                .isEqualTo("/all_tools/limits/0/window (line 1, column 54): " + WINDOW + got);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "18446744073709551616 | the number 18446744073709551616",
        "1e300                | the number 1.0E300",
        "9223372037           | the number 9223372037",
        "\"9223372037\"       | the string \"9223372037\"",
        "\"106752d\"          | the string \"106752d\"",
        "\"999999999999\"     | the string \"999999999999\"",
    })
    void rejectsAWindowTooLongToCount(String window, String got) {
        assertThat(only("{\"version\": \"1\", \"all_tools\": {\"limits\": [{\"window\": " + window + ", \"max\": 1}]}}"))
                .isEqualTo("/all_tools/limits/0/window (line 1, column 54): " + WINDOW + got);
    }

    @ParameterizedTest
    @ValueSource(strings = {"9223372036", "\"9223372036s\"", "\"106751d\""})
    void acceptsTheLongestCountableWindow(String window) throws Exception {
        Policy policy = parse("{\"version\": \"1\", \"all_tools\": {\"limits\": [{\"window\": " + window + ", \"max\": 1}]}}");

        assertThat(policy.allToolsLimits().get(0).window()).isLessThanOrEqualTo(Durations.MAX);
    }

    @Test
    void rejectsAnApprovalTimeoutThatIsNotADuration() {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"action\": \"require_approval\", \"approval\": {\"timeout\": \"soon\"}}}}"))
                .isEqualTo("/tools/t/approval/timeout (line 1, column 88): " + WINDOW + "the string \"soon\"");
    }

    // --- approval ---

    @Test
    void rejectsApprovalOnARuleThatDoesNotRequireApproval() {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"approval\": {\"timeout\": \"1m\"}}}}"))
                .isEqualTo("/tools/t/approval (line 1, column 46): 'approval' only applies to a rule whose action is require_approval");
    }

    @Test
    void blamesAMisspeltActionRatherThanTheApprovalBesideIt() {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"action\": \"require_aproval\", \"approval\": {}}}}"))
                .isEqualTo("/tools/t/action (line 1, column 44): expected one of allow|deny|require_approval, "
                        + "got the string \"require_aproval\"");
    }

    @Test
    void givesRequireApprovalTheDefaultTimeout() throws Exception {
        Policy policy = parse("{\"version\": \"1\", \"tools\": {\"t\": {\"action\": \"require_approval\"}, "
                + "\"u\": {\"action\": \"require_approval\", \"approval\": {}}}}");

        assertThat(policy.tools().get("t").approval()).isEqualTo(Approval.DEFAULT);
        assertThat(policy.tools().get("u").approval()).isEqualTo(new Approval(Duration.ofMinutes(5)));
    }

    @Test
    void readsTheApprovalChannelWithAdminTheDefault() throws Exception {
        Policy policy = parse("{\"version\": \"1\", \"tools\": {\"t\": {\"action\": \"require_approval\", \"approval\": "
                + "{\"via\": \"elicitation\", \"timeout\": \"2m\"}}, \"u\": {\"action\": \"require_approval\", \"approval\": "
                + "{\"via\": \"admin\"}}}}");

        assertThat(policy.tools().get("t").approval()).isEqualTo(new Approval(Duration.ofMinutes(2), Approval.Via.ELICITATION));
        assertThat(policy.tools().get("u").approval()).isEqualTo(Approval.DEFAULT);
        assertThat(Approval.DEFAULT.via()).isEqualTo(Approval.Via.ADMIN);
    }

    @Test
    void rejectsAnApprovalChannelItDoesNotKnow() {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"action\": \"require_approval\", \"approval\": {\"via\": \"email\"}}}}"))
                .isEqualTo("/tools/t/approval/via (line 1, column 84): expected one of admin|elicitation, got the string \"email\"");
    }

    @Test
    void rejectsElicitationForAClientSideOnlyRule() {
        assertThat(only("{\"version\": \"1\", \"servers\": {\"gh\": {\"tools\": {\"t\": {\"action\": \"require_approval\","
                + " \"approval\": {\"via\": \"elicitation\"}}}}}}"))
                .startsWith("/servers/gh/tools/t/approval/via (line 1, column ")
                .endsWith("\"elicitation\" asks the MCP client that called a server-side tool; rules under /servers are client side"
                        + " only, where the agent's own app is that client: use \"admin\"");
    }

    // --- regexes ---

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "(unclosed  | missing closing )",
        "a)         | regexp/syntax: internal error",
        "[z-a]      | invalid character class range",
        "(?=ahead)  | invalid or unsupported Perl syntax",
        "x{2,1}     | invalid repeat count",
        "\\\\1      | invalid escape sequence",
    })
    void rejectsARegexThatRe2CannotCompile(String regex, String description) {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"require\": [{\"path\": \"a\", \"op\": \"regex\", \"value\": \""
                + regex + "\"}]}}}"))
                .isEqualTo("/tools/t/require/0/value (line 1, column 84): invalid regular expression (RE2 syntax): " + description);
    }

    // --- globs ---

    @Test
    void rejectsGlobsWithTheSameLiteralPrefix() {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"get_*\": {}, \"get_*_file\": {\"action\": \"deny\"}}}"))
                .isEqualTo("/tools/get_*_file (line 1, column 55): glob 'get_*_file' ties with glob 'get_*': both have the "
                        + "literal prefix 'get_', so neither takes precedence; make one prefix longer or merge the rules");
    }

    @Test
    void acceptsGlobsWhosePrefixesDifferAndAnExactNameBesideAGlob() throws Exception {
        Policy policy = parse("{\"version\": \"1\", \"tools\": {\"get_*\": {}, \"get_f*\": {}, \"get_file\": {}, \"*\": {}}}");

        assertThat(policy.tools()).containsOnlyKeys("get_*", "get_f*", "get_file", "*");
    }

    @Test
    void checksGlobTiesPerServerSection() {
        assertThat(all("{\"version\": \"1\", \"tools\": {\"a*\": {}}, "
                + "\"servers\": {\"s\": {\"tools\": {\"a*\": {}, \"a?\": {}}}}}")).containsExactly(
                "/servers/s/tools/a? (line 1, column 83): glob 'a?' ties with glob 'a*': both have the literal prefix 'a', "
                        + "so neither takes precedence; make one prefix longer or merge the rules");
    }

    // --- shared counters ---

    @Test
    void acceptsACounterDeclaredTwiceTheSameWay() throws Exception {
        Policy policy = parse("{\"version\": \"1\", \"tools\": {"
                + "\"a\": {\"limits\": [{\"counter\": \"c\", \"window\": \"1m\", \"max\": 5}]},"
                + "\"b\": {\"limits\": [{\"counter\": \"c\", \"window\": 60, \"max\": 5, \"scope\": \"global\", \"algorithm\": \"sliding\"}]}}}");

        assertThat(policy.tools().get("a").limits()).isEqualTo(policy.tools().get("b").limits());
    }

    @Test
    void rejectsACounterDeclaredTwiceWithDifferentSettings() {
        assertThat(only("{\"version\": \"1\", \"tools\": {"
                + "\"a\": {\"limits\": [{\"counter\": \"c\", \"window\": \"1m\", \"max\": 5, \"scope\": \"grant\"}]},"
                + "\"b\": {\"limits\": [{\"counter\": \"c\", \"window\": \"1m\", \"max\": 5, \"algorithm\": \"fixed\"}]}}}"))
                .isEqualTo("/tools/b/limits/0 (line 1, column 125): counter 'c' is declared differently at /tools/a/limits/0 "
                        + "(5 per 1m, scope client, sliding vs 5 per 1m, scope global, fixed); limits sharing a counter must "
                        + "agree on window, max, scope and algorithm");
    }

    // --- version ---

    @Test
    void requiresAVersion() {
        assertThat(only("{\"default\": \"deny\"}"))
                .isEqualTo("(document) (line 1, column 1): missing required key 'version'; expected \"1\"");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"2\"   | the string \"2\"",
        "\"1.0\" | the string \"1.0\"",
        "2       | the number 2",
        "1.5     | the number 1.5",
        "true    | true",
    })
    void rejectsAnUnsupportedVersion(String version, String got) {
        assertThat(only("{\"version\": " + version + "}"))
                .isEqualTo("/version (line 1, column 13): unsupported version " + got + "; expected \"1\"");
    }

    // --- empty and malformed documents ---

    @ParameterizedTest
    @ValueSource(strings = {"", "   \n  "})
    void rejectsAnEmptyJsonDocument(String text) {
        assertThat(errorsOf(text, PolicyParser.Format.JSON))
                .containsExactly("(document) (line 1, column 1): the document is empty; expected an object");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "# only a comment\n"})
    void rejectsAnEmptyYamlDocument(String text) {
        assertThat(errorsOf(text, PolicyParser.Format.YAML))
                .containsExactly("(document) (line 1, column 1): the document is empty; expected an object");
    }

    @Test
    void rejectsARootThatIsNotAnObject() {
        assertThat(only("[\"version\"]")).isEqualTo("(document) (line 1, column 1): expected the policy to be an object, got an array");
        assertThat(onlyYaml("just text\n")).isEqualTo("(document) (line 1, column 1): expected the policy to be an object, got the string \"just text\"");
    }

    @Test
    void reportsMalformedJsonWithLineAndColumn() {
        assertThat(only("{\n  \"version\": \"1\",\n  \"tools\": {\"t\": {},}\n}")).isEqualTo(
                "(document) (line 3, column 21): malformed JSON: unexpected character '}': expected a key in double quotes");
    }

    @Test
    void reportsTruncatedJsonWithLineAndColumn() {
        assertThat(only("{\"version\": \"1\",\n \"tools\": {")).isEqualTo(
                "(document) (line 2, column 12): malformed JSON: unexpected end of the document: expected '}' to close the object "
                        + "that starts at line 2, column 11");
    }

    @Test
    void reportsContentAfterTheJsonDocument() {
        assertThat(only("{\"version\": \"1\"}\n{\"version\": \"1\"}")).isEqualTo(
                "(document) (line 2, column 1): unexpected content after the end of the document");
    }

    @Test
    void reportsMalformedYamlInOneLineWithoutQuotingTheSource() {
        assertThat(onlyYaml("version: \"1\"\ntools:\n  t: {action: deny\n")).isEqualTo("(document) (line 3, column 19): "
                + "malformed YAML: while parsing a flow mapping; expected ',' or '}', but got <stream end>");
    }

    @Test
    void reportsMisindentedYaml() {
        assertThat(onlyYaml("version: \"1\"\ntools:\n  t:\n    action: deny\n   reason: x\n")).isEqualTo("(document) "
                + "(line 5, column 4): malformed YAML: while parsing a block mapping; expected <block end>, but found "
                + "'<block mapping start>'");
    }

    @Test
    void reportsYamlErrorsWithTheirYamlPositions() {
        assertThat(errorsOf("""
                version: "1"
                tools:
                  run_command:
                    acton: allow
                    limits:
                      - counter: c
                        window: 5 minutes
                        max: 0
                """, PolicyParser.Format.YAML)).containsExactly(
                "/tools/run_command/acton (line 4, column 12): unknown key 'acton' (did you mean 'action'?); " + RULE_KEYS,
                "/tools/run_command/limits/0/window (line 7, column 17): " + WINDOW + "the string \"5 minutes\"",
                "/tools/run_command/limits/0/max (line 8, column 14): expected a whole number of calls from 1 to 2147483647, "
                        + "got the number 0");
    }

    @Test
    void sniffsABraceAsJsonSoAFlowStyleYamlFileNeedsItsExtension() {
        assertThat(errorsOf("{version: '1'}", null)).containsExactly("(document) (line 1, column 2): malformed JSON: "
                + "unexpected character 'v': expected a key in double quotes");
    }

    @Test
    void rejectsAYamlAliasInsteadOfReadingItsName() {
        assertThat(errorsOf("""
                version: "1"
                tools:
                  t:
                    deny_if:
                      - {path: command, op: contains, value: &danger "rm -rf"}
                      - {path: script, op: contains, value: *danger}
                """, PolicyParser.Format.YAML)).containsExactly("/tools/t/deny_if/1/value (line 6, column 45): "
                + "YAML aliases (*danger) are not supported; write the value out");
    }

    @Test
    void reportsASecondYamlDocument() {
        assertThat(onlyYaml("version: \"1\"\n---\ndefault: allow\n"))
                .isEqualTo("(document) (line 3, column 1): unexpected content after the end of the document");
    }

    @Test
    void neverShowsTheSourceTextInAMalformedDocumentMessage() {
        assertThat(only("{\"version\": \"1\", \"secret-token-123\" }")).doesNotContain("Source").doesNotContain("secret-token-123");
    }

    // --- conditions: op and value ---

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "in         | \"a\"    | op 'in' takes an array of values, got the string \"a\"",
        "not_in     | 1        | op 'not_in' takes an array of values, got the number 1",
        "lt         | \"5\"    | op 'lt' takes a number, got the string \"5\"",
        "lte        | null     | op 'lte' takes a number, got null",
        "gt         | [1]      | op 'gt' takes a number, got an array",
        "gte        | true     | op 'gte' takes a number, got true",
        "regex      | 5        | op 'regex' takes a regular expression string, got the number 5",
        "contains   | {}       | op 'contains' takes a string, number or boolean, got an object",
        "contains   | [\"a\"]  | op 'contains' takes a string, number or boolean, got an array",
        "contains   | null     | op 'contains' takes a string, number or boolean, got null",
        "max_length | -1       | op 'max_length' takes a non-negative integer, got the number -1",
        "max_length | 2.5      | op 'max_length' takes a non-negative integer, got the number 2.5",
        "max_length | \"10\"   | op 'max_length' takes a non-negative integer, got the string \"10\"",
        "exists     | \"yes\"  | op 'exists' takes true, false or no value, got the string \"yes\"",
        "exists     | null     | op 'exists' takes true, false or no value, got null",
    })
    void rejectsAValueOfTheWrongTypeForTheOp(String op, String value, String message) {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"deny_if\": [{\"path\": \"a\", \"op\": \"" + op
                + "\", \"value\": " + value + "}]}}}"))
                .isEqualTo("/tools/t/deny_if/0/value (line 1, column " + (79 + op.length()) + "): " + message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "eq | \"x\"", "eq | null", "eq | {\"a\": [1]}", "neq | 3", "in | []", "not_in | [1, \"a\", null]",
        "lt | 1.5", "lte | -2", "gt | 0", "gte | 1e3", "regex | \"^a$\"", "contains | \"rm\"", "contains | 5",
        "max_length | 0", "max_length | 10.0", "exists | true", "exists | false",
    })
    void acceptsAValueOfTheRightTypeForTheOp(String op, String value) throws Exception {
        Policy policy = parse("{\"version\": \"1\", \"tools\": {\"t\": {\"deny_if\": [{\"path\": \"a\", \"op\": \"" + op
                + "\", \"value\": " + value + "}]}}}");

        assertThat(policy.tools().get("t").denyIf()).hasSize(1);
    }

    @Test
    void rejectsAnUnknownOp() {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"require\": [{\"path\": \"a\", \"op\": \"equals\", \"value\": 1}]}}}"))
                .isEqualTo("/tools/t/require/0/op (line 1, column 66): expected one of "
                        + "eq|neq|in|not_in|lt|lte|gt|gte|regex|contains|exists|max_length, got the string \"equals\"");
    }

    @Test
    void requiresPathOpAndValue() {
        assertThat(all("{\"version\": \"1\", \"tools\": {\"t\": {\"require\": [{}, {\"path\": \"a\", \"op\": \"eq\"}]}}}"))
                .containsExactly(
                        "/tools/t/require/0 (line 1, column 46): missing required key 'path'",
                        "/tools/t/require/0 (line 1, column 46): missing required key 'op'",
                        "/tools/t/require/1 (line 1, column 50): missing required key 'value' for op 'eq'");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"\"        | the string \"\"",
        "\".a\"      | the string \".a\"",
        "\"a.\"      | the string \"a.\"",
        "\"a..b\"    | the string \"a..b\"",
        "\"args.\"   | the string \"args.\"",
        "5           | the number 5",
        "[\"a\"]     | an array",
    })
    void rejectsAnInvalidPath(String path, String got) {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"require\": [{\"path\": " + path + ", \"op\": \"exists\"}]}}}"))
                .isEqualTo("/tools/t/require/0/path (line 1, column 55): " + PATH + got);
    }

    @Test
    void pointsAtArgsArgsForAnArgumentNamedArgs() {
        assertThat(only("{\"version\": \"1\", \"tools\": {\"t\": {\"require\": [{\"path\": \"args\", \"op\": \"exists\"}]}}}"))
                .isEqualTo("/tools/t/require/0/path (line 1, column 55): \"args\" alone names all the arguments;"
                        + " for the argument named args write \"args.args\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "a.b.0.c", "args.command", "args.args.0", "0", "a-b.c_d", "a b"})
    void acceptsAValidPath(String path) throws Exception {
        Policy policy = parse("{\"version\": \"1\", \"tools\": {\"t\": {\"require\": [{\"path\": \"" + path + "\", \"op\": \"exists\"}]}}}");

        assertThat(policy.tools().get("t").require()).containsExactly(new Condition(path, Op.EXISTS, true));
    }

    // --- arguments schema ---

    @Test
    void reportsSchemaErrorsAtTheirPlaceInThePolicy() {
        assertThat(all("{\"version\": \"1\", \"tools\": {\"t\": {\"arguments\": {\"type\": \"object\",\n"
                + "  \"properties\": {\"a\": {\"type\": \"text\"}, \"b\": {\"pattern\": \"(\"}},\n"
                + "  \"unevaluatedProperties\": false}}}}"))
                .containsExactly(
                        "/tools/t/arguments/properties/a/type (line 2, column 32): unknown type text; expected one of "
                                + "string, number, integer, boolean, object, array, null",
                        "/tools/t/arguments/properties/b/pattern (line 2, column 58): invalid regular expression: missing closing )",
                        "/tools/t/arguments/unevaluatedProperties (line 3, column 28): unsupported schema keyword "
                                + "'unevaluatedProperties'; supported: type, enum, const, minLength, maxLength, pattern, minimum, "
                                + "maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, properties, required, "
                                + "additionalProperties, patternProperties, propertyNames, minProperties, maxProperties, "
                                + "dependentRequired, dependentSchemas, items, prefixItems, minItems, maxItems, uniqueItems, "
                                + "contains, minContains, maxContains, allOf, anyOf, oneOf, not, if, then, else, $ref, $defs, "
                                + "definitions");
    }

    @Test
    void aCallerPathNamesAKnownFieldAndTheArgumentNamedCallerIsArgsCaller() throws PolicyException {
        assertThat(only("""
                {"version": "1", "tools": {"x": {"require": [{"path": "caller.role", "op": "contains", "value": "ops"}]}}}
                """)).isEqualTo("/tools/x/require/0/path (line 1, column 55): unknown caller field 'role' (did you mean 'roles'?);"
                + " expected caller.sub, caller.name, caller.roles, caller.claims.<name> or caller.verified (an argument named caller is"
                + " args.caller)");
        assertThat(only("""
                {"version": "1", "tools": {"x": {"deny_if": [{"path": "caller.claims", "op": "exists"}]}}}
                """)).contains("/tools/x/deny_if/0/path").contains("caller.claims needs a claim's name after it, like caller.claims.email");
        assertThat(only("""
                {"version": "1", "tools": {"x": {"require": [{"path": "caller.sub.first", "op": "exists"}]}}}
                """)).contains("caller.sub has no fields");
        assertThat(only("""
                {"version": "1", "tools": {"x": {"require": [{"path": "caller", "op": "exists"}]}}}
                """)).contains("unknown caller field ''");
        assertThat(parse("""
                {"version": "1", "tools": {"x": {"require": [{"path": "args.caller.role", "op": "exists"},
                  {"path": "caller.claims.groups.0", "op": "eq", "value": "a"}, {"path": "caller.verified", "op": "eq", "value": true}]}}}
                """).tools().get("x").require()).hasSize(3);
    }

    @Test
    void theIdentitySectionNamesAKeySetAnIssuerAndAnAudience() throws PolicyException {
        Policy policy = parse("""
                {"version": "1", "identity": {"jwt": {"jwks": "https://idp.example.com/.well-known/jwks.json",
                  "issuer": "https://idp.example.com/", "audience": "mcp-tools"}}}
                """);
        assertThat(policy.identity().jwt()).isEqualTo(new Identity.Jwt("https://idp.example.com/.well-known/jwks.json",
                "https://idp.example.com/", "mcp-tools"));
        assertThat(policy.identity().jwt().jwksIsUrl()).isTrue();
        assertThat(parse("{\"version\": \"1\"}").identity()).isEqualTo(Identity.NONE);
        assertThat(parse("""
                {"version": "1", "identity": {"jwt": {"jwks": "keys/jwks.json", "issuer": "i", "audience": "a"}}}
                """).identity().jwt().jwksIsUrl()).isFalse();
        assertThat(parse("""
                {"version": "1", "identity": {"jwt": {"jwks": "http://127.0.0.1:8080/jwks", "issuer": "i", "audience": "a"}}}
                """).identity().isSet()).isTrue();
        assertThat(all("""
                {"version": "1", "identity": {"jwt": {"jwks": "http://idp.example.com/jwks", "issuer": 5, "audiences": "a"}}}
                """)).containsExactly(
                "/identity/jwt (line 1, column 38): missing required key 'audience' (an aud a token must carry)",
                "/identity/jwt/jwks (line 1, column 47): a key set fetched over plain http can be swapped on the way; use https://"
                        + " (http:// only for a loopback host)",
                "/identity/jwt/issuer (line 1, column 88): expected the iss a token must carry, got the number 5",
                "/identity/jwt/audiences (line 1, column 104): unknown key 'audiences' (did you mean 'audience'?); expected one of"
                        + " jwks, issuer, audience");
        assertThat(all("""
                {"version": "1", "identity": {"oidc": {}}}
                """)).hasSize(2).anyMatch(error -> error.startsWith("/identity/oidc (line 1, column 39): unknown key 'oidc'; expected one of jwt"))
                .anyMatch(error -> error.contains("missing required key 'jwt'"));
    }

    @Test
    void aUserLimitIsAScope() throws PolicyException {
        Policy policy = parse("""
                {"version": "1", "tools": {"x": {"limits": [{"max": 100, "window": "1d", "scope": "user"}]}}}
                """);
        assertThat(policy.tools().get("x").limits().get(0).scope()).isEqualTo(Scope.USER);
    }

    // --- helpers ---

    private static Policy parse(String json) throws PolicyException {
        return PolicyParser.parse(json, PolicyParser.Format.JSON, "policy.json");
    }

    private static String only(String json) {
        List<String> errors = errorsOf(json, PolicyParser.Format.JSON);
        assertThat(errors).hasSize(1);
        return errors.get(0);
    }

    private static String onlyYaml(String yaml) {
        List<String> errors = errorsOf(yaml, PolicyParser.Format.YAML);
        assertThat(errors).hasSize(1);
        return errors.get(0);
    }

    private static List<String> all(String json) {
        return errorsOf(json, PolicyParser.Format.JSON);
    }

    private static List<String> errorsOf(String text, PolicyParser.Format format) {
        PolicyException thrown = catchThrowableOfType(PolicyException.class,
                () -> PolicyParser.parse(text, format, "policy"));
        assertThat(thrown).as("a PolicyException").isNotNull();
        assertThat(thrown.getStackTrace()).isEmpty();
        return thrown.errors().stream().map(PolicyError::toString).toList();
    }
}
