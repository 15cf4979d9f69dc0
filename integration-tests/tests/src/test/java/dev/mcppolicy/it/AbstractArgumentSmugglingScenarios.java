package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Argument smuggling on a real SDK (issue 9): the fixture's {@code transfer} binds its arguments with the
 * SDK's own Jackson into a {@code long}, as a Java tool's parameters are bound, so {@code "5000"} arrives as
 * 5000; {@code exec} joins an argv into a command line. A {@code deny_if} must see through both: a numeric
 * string compares by value, an array's items (and a flat array joined with spaces) are what a string op
 * tests, and a value the op cannot test denies. Each refusal is the caller's §5 text, the handler never
 * runs, and the decision line names the leaf that decided ({@code arg=}), never its value. Monitor mode
 * shows the attack is real: the handler runs with the coerced amount.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractArgumentSmugglingScenarios {
    static final String POLICY = """
            { "version": "1", "default": "deny",%s
              "tools": {
                "echo": {},
                "transfer": { "deny_if": [ { "path": "amount", "op": "gt", "value": 1000 } ] },
                "exec": { "deny_if": [ { "path": "command", "op": "contains", "value": "rm -rf" } ] } } }
            """;
    static final String ALLOW_ALL = "{ \"version\": \"1\", \"default\": \"allow\" }";
    static final String CLIENT_DENIES_LARGE_TRANSFERS = """
            { "version": "1", "default": "allow",
              "tools": { "transfer": { "deny_if": [ { "path": "amount", "op": "gt", "value": 1000 } ] } } }
            """;
    static final String OVER_THE_LIMIT = "Policy denied tool 'transfer': denied by condition: amount gt 1000";
    static final String TRANSFER_RULE = " [rule /tools/transfer/deny_if/0]";
    static final String EXEC_DENIED = "Policy denied tool 'exec': denied by condition: command contains \"rm -rf\"";
    static final String EXEC_RULE = " [rule /tools/exec/deny_if/0]";

    /** Fields whose text is not the arguments' and may hold any digits (a hash, a duration, an id). */
    private static final Pattern OPAQUE_FIELDS = Pattern.compile(" (args_sha256|took_us|session)=\\S+");

    private McpPair enforcing;
    private McpPair monitoring;
    private McpPair clientSide;

    abstract String sdkVersion();

    @BeforeAll
    void startFixtures() throws Exception {
        String name = getClass().getSimpleName();
        enforcing = McpPair.start(name + "-enforce", sdkVersion(), "stdio", POLICY.formatted(""), ALLOW_ALL, "", "");
        monitoring = McpPair.start(name + "-monitor", sdkVersion(), "stdio", POLICY.formatted(" \"mode\": \"monitor\","),
                ALLOW_ALL, "", "");
        clientSide = McpPair.start(name + "-client", sdkVersion(), "stdio", POLICY.formatted(""), CLIENT_DENIES_LARGE_TRANSFERS,
                "", "");
    }

    @AfterAll
    void stopFixturesAndCheckAgentHealth() throws Exception {
        McpPair[] pairs = {enforcing, monitoring, clientSide};
        try {
            for (McpPair pair : pairs) {
                assertThat(pair).as("fixtures started").isNotNull();
                assertThat(pair.serverLog()).as("server agent errors\n%s", pair.dump()).noneMatch(AbstractArgumentSmugglingScenarios::agentError);
                assertThat(pair.clientLog()).as("client agent errors\n%s", pair.dump()).noneMatch(AbstractArgumentSmugglingScenarios::agentError);
            }
        } finally {
            for (McpPair pair : pairs) {
                if (pair != null) {
                    pair.close();
                }
            }
        }
    }

    @Test
    void deniesANumberOverTheLimit() throws Exception {
        assertRefusedBeforeTheHandler("transfer", "{\"amount\":5000}", OVER_THE_LIMIT + TRANSFER_RULE, "args.amount", "5000");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"5000\"", "\"5e3\"", "\" 5000 \""})
    void deniesANumericStringOverTheLimitByItsValue(String amount) throws Exception {
        assertRefusedBeforeTheHandler("transfer", "{\"amount\":" + amount + "}", OVER_THE_LIMIT + TRANSFER_RULE, "args.amount",
                amount.replace("\"", "").trim());
    }

    @Test
    void deniesASignedNumericStringThatJacksonBindsAsTheNumber() throws Exception {
        // "+5000" binds to 5000 too; whether it reads as a number or as a string the op cannot test, it must deny
        int handled = handlerLines(enforcing, "transfer").size();
        String answer = enforcing.call("transfer", "{\"amount\":\"+5000\"}");
        enforcing.sync();
        List<String> handlers = handlerLines(enforcing, "transfer");
        SoftAssertions.assertSoftly(soft -> {
            soft.assertThat(answer).as("the caller's answer").startsWith("RESULT isError=true text=" + OVER_THE_LIMIT).endsWith(TRANSFER_RULE);
            soft.assertThat(handlers.subList(handled, handlers.size())).as("handler lines of this call").isEmpty();
        });
    }

    @Test
    void deniesANumberSmuggledInAnArray() throws Exception {
        assertRefusedBeforeTheHandler("transfer", "{\"amount\":[5000]}", OVER_THE_LIMIT + " (at args.amount.0)" + TRANSFER_RULE,
                "args.amount.0", "5000");
    }

    @Test
    void deniesAStringItCannotCompareInsteadOfLettingItPass() throws Exception {
        assertRefusedBeforeTheHandler("transfer", "{\"amount\":\"lots\"}",
                OVER_THE_LIMIT + " (args.amount: a string that is not a number cannot be checked)" + TRANSFER_RULE,
                "args.amount", "lots");
    }

    @Test
    void deniesACommandSmuggledAsAnArrayItem() throws Exception {
        assertRefusedBeforeTheHandler("exec", "{\"command\":[\"rm -rf /\"]}", EXEC_DENIED + " (at args.command.0)" + EXEC_RULE,
                "args.command.0", "rm -rf /");
    }

    @Test
    void deniesACommandSmuggledAsAnArgvTheToolJoins() throws Exception {
        assertRefusedBeforeTheHandler("exec", "{\"command\":[\"rm\",\"-rf\",\"/\"]}",
                EXEC_DENIED + " (at args.command, its items joined with spaces)" + EXEC_RULE, "args.command", "rm -rf /");
    }

    @ParameterizedTest
    @ValueSource(strings = {"500", "\"500\""})
    void runsAnAllowedTransferWithTheAmountItsJacksonBound(String amount) throws Exception {
        assertRunsTheHandler("transfer", "{\"amount\":" + amount + "}", "transferred 500", "HANDLER RAN transfer amount=500");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"ls -la\"", "[\"ls\",\"-la\"]"})
    void runsAnAllowedCommandLineOrArgv(String command) throws Exception {
        assertRunsTheHandler("exec", "{\"command\":" + command + "}", "exec would run: ls -la", "HANDLER RAN exec line=ls -la");
    }

    @Test
    void monitorModeRunsTheCoercedAmountAndLogsWhatItWouldHaveDenied() throws Exception {
        int handled = handlerLines(monitoring, "transfer").size();
        int decided = decisionLines(monitoring, "transfer").size();
        assertThat(monitoring.call("transfer", "{\"amount\":\"5000\"}")).isEqualTo("RESULT isError=false text=transferred 5000");
        monitoring.sync();
        // the handler bound the string "5000" to the long 5000: the attack is real
        List<String> handlers = handlerLines(monitoring, "transfer");
        assertThat(handlers).as(monitoring.dump()).hasSize(handled + 1);
        assertThat(handlers.get(handled)).isEqualTo("HANDLER RAN transfer amount=5000");
        List<String> decisions = decisionLines(monitoring, "transfer");
        assertThat(decisions).as(monitoring.dump()).hasSize(decided + 1);
        SoftAssertions.assertSoftly(soft -> {
            String line = decisions.get(decided);
            soft.assertThat(line).as("decision line").startsWith("mcp-policy decision=ALLOW would=DENY tool=transfer side=server "
                    + "rule=/tools/transfer/deny_if/0 ");
            soft.assertThat(line).as("decision line names the leaf").containsPattern(field("args.amount"));
            soft.assertThat(withoutOpaqueFields(line)).as("decision line without the value").doesNotContain("5000");
        });
    }

    /** With nothing refused (monitor mode), what the SDK's Jackson makes of each smuggled amount ("-": binding fails). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"5000\"   | 5000",
        "\" 5000 \" | 5000",
        "\"+5000\"  | 5000",
        "\"5e3\"    | -",
        "[5000]     | -",
        "\"lots\"   | -"})
    void showsWhatTheSdksJacksonMakesOfEachSmuggledAmount(String amount, String bound) throws Exception {
        int handled = handlerLines(monitoring, "transfer").size();
        String answer = monitoring.call("transfer", "{\"amount\":" + amount + "}");
        monitoring.sync();
        List<String> lines = handlerLines(monitoring, "transfer");
        assertThat(lines).as(monitoring.dump()).hasSize(handled + 1);
        if (bound.equals("-")) {
            assertThat(lines.get(handled)).startsWith("HANDLER BIND FAILED transfer ").contains("Cannot deserialize value of type `long` from ");
            assertThat(answer).startsWith("RESULT isError=true text=transfer failed: ");
        } else {
            assertThat(lines.get(handled)).isEqualTo("HANDLER RAN transfer amount=" + bound);
            assertThat(answer).isEqualTo("RESULT isError=false text=transferred " + bound);
        }
    }

    @Test
    void warnsAtStartThatADenyListAloneGuardsTheCommandTool() throws Exception {
        enforcing.sync();
        List<String> warnings = enforcing.serverLog().stream().filter(l -> l.contains("[mcp-policy] WARN policy ")).toList();
        assertThat(warnings).as(enforcing.dump()).hasSize(1);
        assertThat(warnings.get(0)).endsWith("[mcp-policy] WARN policy /tools/exec/deny_if: 'exec' looks like it runs commands and"
                + " only deny_if guards it; a deny list misses what it does not name (another spelling, quoting, or the value"
                + " split across an array), so add \"require\" (an allow list of what may run) or \"arguments\": \"input_schema\"");
    }

    @Test
    void aClientPolicyRefusesTheSmuggledAmountWithoutSendingIt() throws Exception {
        String answer = clientSide.call("transfer", "{\"amount\":\"5000\"}");
        // a later call on the same connection has been handled, so the server would have seen the first by now
        clientSide.sync();
        SoftAssertions.assertSoftly(soft -> {
            soft.assertThat(answer).as("the caller's answer").isEqualTo("RESULT isError=true text=" + OVER_THE_LIMIT + TRANSFER_RULE);
            soft.assertThat(clientSide.clientLog()).as("client decision line").anyMatch(l -> l.contains(
                    "mcp-policy decision=DENY tool=transfer side=client server=fixture-server rule=/tools/transfer/deny_if/0 "));
            soft.assertThat(clientSide.serverLog()).as("server lines about transfer")
                    .noneMatch(l -> l.contains("tool=transfer") || l.startsWith("HANDLER ") && l.contains(" transfer "));
        });
    }

    /**
     * The call is refused with {@code text}, its handler never runs, and its one decision line is a DENY by
     * the tool's {@code deny_if/0} naming {@code leaf} as {@code arg=}, without {@code value}. Soft: every
     * miss is reported, not only the first.
     */
    private void assertRefusedBeforeTheHandler(String tool, String arguments, String text, String leaf, String value)
            throws IOException {
        int handled = handlerLines(enforcing, tool).size();
        int decided = decisionLines(enforcing, tool).size();
        String answer = enforcing.call(tool, arguments);
        enforcing.sync();
        List<String> handlers = handlerLines(enforcing, tool);
        List<String> decisions = decisionLines(enforcing, tool);
        SoftAssertions.assertSoftly(soft -> {
            soft.assertThat(answer).as("the caller's answer").isEqualTo("RESULT isError=true text=" + text);
            soft.assertThat(handlers.subList(handled, handlers.size())).as("handler lines of this call").isEmpty();
            soft.assertThat(decisions).as("decision lines after the call\n%s", enforcing.dump()).hasSize(decided + 1);
            if (decisions.size() > decided) {
                String line = decisions.get(decided);
                soft.assertThat(line).as("decision line").startsWith("mcp-policy decision=DENY tool=" + tool + " side=server rule=/tools/"
                        + tool + "/deny_if/0 ");
                soft.assertThat(line).as("decision line names the leaf").containsPattern(field(leaf));
                soft.assertThat(withoutOpaqueFields(line)).as("decision line without the value").doesNotContain(value);
            }
        });
    }

    private void assertRunsTheHandler(String tool, String arguments, String text, String handlerLine) throws IOException {
        int handled = handlerLines(enforcing, tool).size();
        int decided = decisionLines(enforcing, tool).size();
        assertThat(enforcing.call(tool, arguments)).isEqualTo("RESULT isError=false text=" + text);
        enforcing.sync();
        List<String> handlers = handlerLines(enforcing, tool);
        assertThat(handlers).as(enforcing.dump()).hasSize(handled + 1);
        assertThat(handlers.get(handled)).isEqualTo(handlerLine);
        List<String> decisions = decisionLines(enforcing, tool);
        assertThat(decisions).hasSize(decided + 1);
        assertThat(decisions.get(decided)).startsWith("mcp-policy decision=ALLOW tool=" + tool + " side=server rule=/tools/" + tool + " ");
    }

    /** The server's {@code HANDLER RAN TOOL ...} and {@code HANDLER BIND FAILED TOOL ...} lines, in order. */
    private static List<String> handlerLines(McpPair pair, String tool) {
        return pair.serverLog().stream()
                .filter(l -> l.startsWith("HANDLER RAN " + tool + " ") || l.startsWith("HANDLER BIND FAILED " + tool + " ")).toList();
    }

    /** The server's decision lines for {@code tool}, in order, from {@code mcp-policy decision=} on (no logger prefix). */
    private static List<String> decisionLines(McpPair pair, String tool) {
        return pair.serverLog().stream().filter(l -> l.contains("mcp-policy decision=") && l.contains(" tool=" + tool + " "))
                .map(l -> l.substring(l.indexOf("mcp-policy decision="))).toList();
    }

    /** {@code arg=LEAF} as a field of its own, not a prefix of a longer leaf. */
    private static Pattern field(String leaf) {
        return Pattern.compile(" arg=" + Pattern.quote(leaf) + "( |$)");
    }

    private static String withoutOpaqueFields(String line) {
        return OPAQUE_FIELDS.matcher(line).replaceAll("");
    }

    private static boolean agentError(String line) {
        return line.contains("advice error") || line.contains("NOT instrumented") || line.contains("NOT policed")
                || line.contains("MORE than expected");
    }
}
