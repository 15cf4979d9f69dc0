package dev.mcppolicy.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyLintTest {
    private static final String DENY_IF = "\"deny_if\": [{\"path\": \"command\", \"op\": \"contains\", \"value\": \"rm -rf\"}]";
    private static final String ADVICE = "; a deny list misses what it does not name (another spelling, quoting, or the value"
            + " split across an array), so add \"require\" (an allow list of what may run) or \"arguments\": \"input_schema\"";

    private static Policy policy(String json) throws PolicyException {
        return PolicyParser.parse(json, PolicyParser.Format.JSON, "test.json");
    }

    private static List<PolicyWarning> warnings(String tools) throws PolicyException {
        return PolicyLint.warnings(policy("{\"version\": \"1\", \"tools\": {" + tools + "}}"));
    }

    @Test
    void warnsWhenDenyIfAloneGuardsAnExecuteTool() throws PolicyException {
        assertThat(warnings("\"run_command\": {" + DENY_IF + "}")).containsExactly(new PolicyWarning("/tools/run_command/deny_if",
                "'run_command' looks like it runs commands and only deny_if guards it" + ADVICE));
    }

    @Test
    void saysDestructiveForDestructiveToolsAndGlobs() throws PolicyException {
        assertThat(warnings("\"delete_*\": {\"action\": \"allow\", " + DENY_IF + "}")).containsExactly(new PolicyWarning(
                "/tools/delete_*/deny_if", "'delete_*' looks destructive and only deny_if guards it; a deny list misses what it"
                        + " does not name (another spelling, quoting, or the value split across an array), so add \"require\""
                        + " (an allow list of what it may act on) or \"arguments\": \"input_schema\""));
    }

    @Test
    void doesNotWarnWhenRequireAllowListsValues() throws PolicyException {
        assertThat(warnings("\"run_command\": {\"require\": [{\"path\": \"command\", \"op\": \"regex\", \"value\": \"^ls$\"}], "
                + DENY_IF + "}")).isEmpty();
    }

    @Test
    void doesNotWarnWhenArgumentsHaveASchema() throws PolicyException {
        assertThat(warnings("\"run_command\": {\"arguments\": {\"type\": \"object\"}, " + DENY_IF + "}")).isEmpty();
        assertThat(warnings("\"run_command\": {\"arguments\": \"input_schema\", " + DENY_IF + "}")).isEmpty();
    }

    @Test
    void doesNotWarnWhenNoCallRunsUnseen() throws PolicyException {
        assertThat(warnings("\"run_command\": {\"action\": \"deny\", " + DENY_IF + "}")).isEmpty();
        assertThat(warnings("\"run_command\": {\"action\": \"require_approval\", " + DENY_IF + "}")).isEmpty();
    }

    @Test
    void doesNotWarnForReadLikeTools() throws PolicyException {
        assertThat(warnings("\"read_file\": {" + DENY_IF + "}, \"write_file\": {" + DENY_IF + "}")).isEmpty();
    }

    @Test
    void doesNotWarnWithoutDenyIf() throws PolicyException {
        assertThat(warnings("\"run_command\": {\"deny_if\": []}, \"bash\": {}")).isEmpty();
    }

    @Test
    void pointsIntoServerSections() throws PolicyException {
        Policy policy = policy("{\"version\": \"1\", \"servers\": {\"github\": {\"tools\": {\"delete_repo\": {" + DENY_IF + "}}}}}");
        assertThat(PolicyLint.warnings(policy)).extracting(PolicyWarning::pointer)
                .containsExactly("/servers/github/tools/delete_repo/deny_if");
    }

    @Test
    void escapesKeysInThePointerAndTheMessage() throws PolicyException {
        Policy policy = policy("{\"version\": \"1\", \"servers\": {\"a/b~c\": {\"tools\": {\"fs/rm\": {" + DENY_IF + "},"
                + " \"run\\n'x'\": {" + DENY_IF + "}}}}}");
        List<PolicyWarning> warnings = PolicyLint.warnings(policy);
        assertThat(warnings).extracting(PolicyWarning::pointer)
                .containsExactly("/servers/a~1b~0c/tools/fs~1rm/deny_if", "/servers/a~1b~0c/tools/run\n'x'/deny_if");
        assertThat(warnings.get(0).message()).startsWith("'fs/rm' looks destructive");
        assertThat(warnings.get(1).message()).startsWith("'run\\n\\'x\\'' looks like it runs commands");
        assertThat(warnings.get(1)).hasToString("/servers/a~1b~0c/tools/run\\n'x'/deny_if: " + warnings.get(1).message());
    }

    @Test
    void capsLongKeysInTheMessage() throws PolicyException {
        String key = "run_" + "x".repeat(1000);
        assertThat(warnings("\"" + key + "\": {" + DENY_IF + "}").get(0).message())
                .startsWith("'run_" + "x".repeat(PolicyLint.NAME_CAP - 4) + "\u2026(+748 chars)' looks like it runs commands");
    }

    @Test
    void listsWarningsInPolicyOrderToolsBeforeServers() throws PolicyException {
        Policy policy = policy("{\"version\": \"1\","
                + " \"servers\": {\"s2\": {\"tools\": {\"kill_job\": {" + DENY_IF + "}}}, \"s1\": {\"tools\": {\"exec\": {" + DENY_IF + "}}}},"
                + " \"tools\": {\"shell\": {" + DENY_IF + "}, \"read_file\": {" + DENY_IF + "}, \"drop_table\": {" + DENY_IF + "},"
                + " \"eval\": {" + DENY_IF + "}}}");
        assertThat(PolicyLint.warnings(policy)).extracting(PolicyWarning::pointer).containsExactly(
                "/tools/shell/deny_if", "/tools/drop_table/deny_if", "/tools/eval/deny_if",
                "/servers/s2/tools/kill_job/deny_if", "/servers/s1/tools/exec/deny_if");
    }

    @Test
    void saysOnceWhereThePolicyFirstAsksWhoIsCallingWhichTheAgentDoesNotReadYet() throws PolicyException {
        List<PolicyWarning> caller = warnings("\"search\": {\"limits\": [{\"max\": 5, \"window\": 60, \"scope\": \"user\"}]},"
                + " \"run_command\": {\"require\": [{\"path\": \"caller.roles\", \"op\": \"contains\", \"value\": \"ops\"}]}");
        assertThat(caller).hasSize(1);
        assertThat(caller.get(0).pointer()).isEqualTo("/tools/search/limits/0");
        assertThat(caller.get(0).message()).startsWith("the agent reads a verified caller on HTTP servers only (the MCP Java SDK's servlet and modern HTTP transports,");
        assertThat(PolicyLint.warnings(policy("{\"version\": \"1\", \"identity\": {\"jwt\": {\"jwks\": \"k.json\","
                + " \"issuer\": \"i\", \"audience\": \"a\"}}}"))).extracting(PolicyWarning::pointer).containsExactly("/identity");
        assertThat(warnings("\"x\": {\"require\": [{\"path\": \"args.caller.sub\", \"op\": \"exists\"}]}")).isEmpty();
    }

    @Test
    void findsNothingInTheSpecExample() throws Exception {
        try (var in = getClass().getResourceAsStream("/policies/spec-example.json")) {
            assertThat(PolicyLint.warnings(policy(new String(in.readAllBytes(), StandardCharsets.UTF_8)))).isEmpty();
        }
    }
}
