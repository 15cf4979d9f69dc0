package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every issue-3 scenario against one SDK version and transport: a fixture client JVM and a fixture
 * server JVM, both started once for the class with the real shaded agent and a policy file in their
 * working directories. Nothing is wired by hand; the agent finds everything itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractToolCallScenarios {
    private McpPair pair;

    abstract String sdkVersion();

    abstract String transport();

    /** Whether the fixtures use the SDK's async server and client rather than the sync facades over them. */
    boolean async() {
        return false;
    }

    /** Stateful transports carry a session id and clientInfo; the stateless one carries neither. */
    boolean hasSessionIdentity() {
        return !"stateless".equals(transport());
    }

    @BeforeAll
    void startFixtures() throws Exception {
        pair = startPair();
    }

    /** The fixture client and server of this SDK version and transport; another kind of server app overrides it. */
    McpPair startPair() throws java.io.IOException {
        return McpPair.start(getClass().getSimpleName(), sdkVersion(), transport(), async(), Policies.SERVER, Policies.CLIENT, "", "");
    }

    @AfterAll
    void stopFixturesAndCheckAgentHealth() throws Exception {
        try {
            assertThat(pair.serverLog()).as("server agent errors\n%s", pair.dump())
                    .noneMatch(line -> line.contains("advice error") || line.contains("NOT instrumented")
                            || line.contains("NOT policed") || line.contains("MORE than expected"));
            assertThat(pair.clientLog()).as("client agent errors\n%s", pair.dump())
                    .noneMatch(line -> line.contains("advice error") || line.contains("NOT instrumented")
                            || line.contains("NOT policed") || line.contains("MORE than expected"));
        } finally {
            pair.close();
        }
    }

    /** The classic SDK's resource and prompt hooks, after its tool hooks in the startup summary's line (SPEC §12). */
    static final String SERVER_RESOURCE_HOOKS = "resources/read, resources/list, resources/templates/list, prompts/get, prompts/list";
    static final String CLIENT_RESOURCE_HOOKS = "readResource, listResources, listResourceTemplates, getPrompt, listPrompts";

    /** The startup summary's line for the hooked server class (a regex). */
    String serverHookLine() {
        return "\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.server\\.Mcp(Stateless)?AsyncServer \\(mcp(-core)? "
                + java.util.regex.Pattern.quote(sdkVersion()) + "\\): tools/call, tools/list, " + SERVER_RESOURCE_HOOKS;
    }

    /** The startup summary's line for the hooked client class (a regex). */
    String clientHookLine() {
        return "\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.client\\.McpAsyncClient \\(mcp(-core)? "
                + java.util.regex.Pattern.quote(sdkVersion()) + "\\): callTool, listTools, " + CLIENT_RESOURCE_HOOKS;
    }

    /** How the client fixture reports the server's unknown-tool error: {@code ERROR <exception>: }. */
    String unknownToolErrorPrefix() {
        return "ERROR McpError: ";
    }

    /** What the server's own answer to a tool it does not have says (one of them): the SDK's words. */
    String[] unknownToolMessages() {
        return new String[] {"Unknown tool", "Tool not found"};
    }

    @Test
    void hooksTheServerAndTheClientOfThisSdkVersion() throws Exception {
        pair.sync();
        assertThat(pair.serverLog()).as(pair.dump()).anyMatch(line -> line.matches(serverHookLine()));
        assertThat(pair.clientLog()).as(pair.dump()).anyMatch(line -> line.matches(clientHookLine()));
        assertThat(pair.serverLog()).anyMatch(line -> line.startsWith("[mcp-policy] policy ") && line.contains("sha256="));
        // the run-time self-check in both JVMs
        String canary = "[mcp-policy] canary: the hooks fire (a woven tools/call handler reached the policy)";
        pair.awaitServerLog(line -> line.equals(canary));
        pair.awaitClientLog(line -> line.equals(canary));
        assertThat(pair.serverLog()).noneMatch(line -> line.contains("canary") && line.contains("ERROR"));
    }

    @Test
    void listsOnlyToolsBothPoliciesLetThrough() throws Exception {
        // server: secret_tool hidden, delete_everything denied, unlisted_tool default-denied;
        // client: client_hidden hidden, wire_money denied for this server
        assertThat(pair.list()).isEqualTo("TOOLS audit_me,echo,limited,run_command");
    }

    @Test
    void allowsAnAllowedCallOnceOnEachSide() throws Exception {
        pair.sync();
        long before = count(pair.serverLog(), "decision=ALLOW tool=echo side=server");
        assertThat(pair.call("echo", "{\"text\":\"hi\"}")).isEqualTo("RESULT isError=false text=echo: hi");
        pair.awaitServerLog(l -> l.equals("HANDLER RAN echo {text=hi}"));
        List<String> decisions = matching(pair.serverLog(), "decision=ALLOW tool=echo side=server");
        assertThat(decisions).as("exactly one server decision per call\n%s", pair.dump()).hasSize((int) before + 1);
        assertThat(matching(pair.clientLog(), "decision=ALLOW tool=echo side=client server=fixture-server"))
                .as(pair.dump()).isNotEmpty();
        String line = decisions.get(decisions.size() - 1);
        assertThat(line).contains("rule=/tools/echo").contains("arg_keys=text").contains("args_sha256=");
        // the argument's value is never logged; the session id is random text that may hold "hi" by chance
        String fields = line.substring(line.indexOf("mcp-policy decision=")).replaceFirst(" session=\\S+", "");
        assertThat(fields).doesNotContain(" args=").doesNotContain("hi");
        if (hasSessionIdentity()) {
            assertThat(line).contains("client=fixture-client").doesNotContain("session=-");
        }
    }

    /**
     * What the client answers for a tool its server does not list, where the client itself refuses such a call
     * before sending it (the SDK 2.2 modern API's HTTP client, which mirrors a tool's parameters into headers and
     * must know the tool for that); {@code null} where the call reaches the server, which then denies it.
     */
    String refusalOfUnlistedTool(String tool) {
        return null;
    }

    /** Where the client refuses a call to a tool the server does not list: that it did, and the handler never ran. */
    private boolean refusedByTheClient(String tool) throws Exception {
        String refusal = refusalOfUnlistedTool(tool);
        if (refusal == null) {
            return false;
        }
        assertThat(pair.call(tool, "{}")).isEqualTo(refusal);
        pair.sync();
        assertThat(pair.serverLog()).as(pair.dump()).noneMatch(l -> l.contains("HANDLER RAN " + tool));
        return true;
    }

    @Test
    void deniesADefaultDeniedToolWithoutRunningItsHandler() throws Exception {
        if (refusedByTheClient("unlisted_tool")) {
            return;
        }
        assertThat(pair.call("unlisted_tool", "{}")).startsWith("RESULT isError=true")
                .contains("Policy denied tool 'unlisted_tool': ").endsWith("[rule (default)]");
        pair.sync();
        assertThat(pair.serverLog()).as(pair.dump()).anyMatch(l -> l.contains("decision=DENY tool=unlisted_tool side=server rule=(default)"))
                .noneMatch(l -> l.contains("HANDLER RAN unlisted_tool"));
    }

    @Test
    void tellsTheCallerTheReasonOfAnActionDeny() throws Exception {
        if (refusedByTheClient("delete_everything")) {
            return;
        }
        assertThat(pair.call("delete_everything", "{}")).isEqualTo("RESULT isError=true text=Policy denied tool "
                + "'delete_everything': destructive tools are disabled [rule /tools/delete_everything]");
        pair.sync();
        assertThat(pair.serverLog()).noneMatch(l -> l.contains("HANDLER RAN delete_everything"));
    }

    @Test
    void deniesOnAnArgumentCondition() throws Exception {
        assertThat(pair.call("run_command", "{\"command\":\"ls -l\"}")).isEqualTo("RESULT isError=false text=run_command done");
        assertThat(pair.call("run_command", "{\"command\":\"rm -rf /\"}")).startsWith("RESULT isError=true")
                .endsWith("[rule /tools/run_command/deny_if/0]");
        pair.sync();
        assertThat(count(pair.serverLog(), "HANDLER RAN run_command")).isEqualTo(1);
    }

    @Test
    void validatesArgumentsAgainstTheToolsAdvertisedInputSchema() throws Exception {
        assertThat(pair.call("echo", "{\"text\":42}")).isEqualTo("RESULT isError=true text=Policy denied tool "
                + "'echo': arguments do not match the schema: at /text: expected string, got number"
                + " [rule /tools/echo/arguments]");
        pair.sync();
        assertThat(pair.serverLog()).noneMatch(l -> l.contains("HANDLER RAN echo {text=42}"));
    }

    @Test
    void clientValidatesArgumentsAgainstTheInputSchemaItsServerListed() throws Exception {
        assertThat(pair.list()).contains("run_command");
        assertThat(pair.call("run_command", "{\"command\":7}")).isEqualTo("RESULT isError=true text=Policy denied tool "
                + "'run_command': arguments do not match the schema: at /command: expected string, got number"
                + " [rule /servers/fixture-server/tools/run_command/arguments]");
        pair.sync();
        assertThat(pair.clientLog()).as(pair.dump())
                .anyMatch(l -> l.contains("decision=DENY tool=run_command side=client server=fixture-server rule=/servers/fixture-server/tools/run_command/arguments"));
        assertThat(pair.serverLog()).noneMatch(l -> l.contains("command=7"));
    }

    @Test
    void deniesWithRetryAfterOnceTheRateLimitIsExhausted() throws Exception {
        assertThat(pair.call("limited", "{}")).isEqualTo("RESULT isError=false text=limited done");
        assertThat(pair.call("limited", "{}")).isEqualTo("RESULT isError=false text=limited done");
        assertThat(pair.call("limited", "{}")).startsWith("RESULT isError=true text=Policy denied tool 'limited': ")
                .contains("; retry after ").endsWith("[rule /tools/limited/limits/0]");
        pair.sync();
        assertThat(pair.serverLog()).anyMatch(l -> l.contains("decision=DENY tool=limited side=server") && l.contains("retry_after="));
    }

    @Test
    void refusesAHiddenToolAsAnUnknownOne() throws Exception {
        if (refusedByTheClient("secret_tool")) {
            return;
        }
        assertThat(pair.call("secret_tool", "{}")).startsWith(unknownToolErrorPrefix()).containsAnyOf(unknownToolMessages());
        pair.sync();
        assertThat(pair.serverLog()).as(pair.dump()).anyMatch(l -> l.contains("decision=DENY tool=secret_tool side=server rule=(hidden)"))
                .noneMatch(l -> l.contains("HANDLER RAN secret_tool"));
    }

    @Test
    void neverSendsACallTheClientPolicyDenies() throws Exception {
        assertThat(pair.call("wire_money", "{\"amount\":100}")).isEqualTo(
                "RESULT isError=true text=Policy denied tool 'wire_money': payments need a human [rule /servers/fixture-server/tools/wire_money]");
        // a later call on the same connection has been handled, so the server would have seen the first by now
        pair.sync();
        assertThat(pair.clientLog()).anyMatch(l -> l.contains("decision=DENY tool=wire_money side=client server=fixture-server"));
        assertThat(pair.serverLog()).as(pair.dump()).noneMatch(l -> l.contains("wire_money"));
    }

    @Test
    void monitorModeAllowsAndLogsWhatItWouldHaveDenied() throws Exception {
        assertThat(pair.call("audit_me", "{}")).isEqualTo("RESULT isError=false text=audit_me done");
        pair.sync();
        assertThat(pair.serverLog()).as(pair.dump())
                .anyMatch(l -> l.contains("decision=ALLOW would=DENY tool=audit_me side=server rule=/tools/audit_me"));
    }

    public McpPair pair() {
        return pair;
    }

    static long count(List<String> lines, String fragment) {
        return lines.stream().filter(l -> l.contains(fragment)).count();
    }

    static List<String> matching(List<String> lines, String fragment) {
        return lines.stream().filter(l -> l.contains(fragment)).collect(Collectors.toList());
    }
}
