package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A LangChain4j AI service under the agent (issue 11): an {@code AiServices} interface whose tools come
 * from {@code McpToolProvider} over one {@code DefaultMcpClient}, with a scripted model asking for the
 * tool calls, against the SDK 2.1.0 fixture server (which has no agent: the only policing is LangChain4j's
 * client's). One app JVM per class, started with the real shaded agent and nothing wired.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractLangChain4jScenarios {
    private LangChain4jApp app;

    /** The fixture module's version: {@code 1.0.0}, {@code 1.11.0}, ... */
    abstract String version();

    /** The {@code langchain4j-mcp} artifact version it carries. */
    abstract String mcpVersion();

    abstract String transport();

    /**
     * The {@code servers} key the client's calls are judged under: the server's {@code serverInfo.name}, from the
     * initialize result where this version keeps it (1.18 on), else from the initialize answer the agent reads.
     */
    abstract String serverSection();

    /** {@code executeTool}'s answer to a direct call: 1.0 returns the text, later versions a {@code ToolExecutionResult}. */
    abstract String directAnswer(boolean isError, String text);

    /** Whether this version has {@code executeTool(request, invocationContext)}. */
    abstract boolean hasInvocationContext();

    /**
     * Whether the model is told a denial is a tool error ({@code ToolExecutionResultMessage.isError}, 1.11
     * on), besides reading its text: the scripted model then answers {@code TOOL x (error) SAID ...}.
     */
    boolean flagsToolErrors() {
        return hasInvocationContext();
    }

    /** The scripted model's answer once {@code tool}'s result {@code text} came back. */
    String said(String tool, boolean denied, String text) {
        return "TOOL " + tool + (denied && flagsToolErrors() ? " (error)" : "") + " SAID " + text;
    }

    String policy() {
        return """
                {
                  "version": "1",
                  "default": "deny",
                  "hide": ["client_hidden"],
                  "servers": {
                    "SECTION": {
                      "default": "deny",
                      "tools": {
                        "echo": { "arguments": "input_schema" },
                        "run_command": { "deny_if": [ { "path": "command", "op": "contains", "value": "rm -rf" } ] },
                        "wire_money": { "action": "deny", "reason": "payments need a human" },
                        "client_hidden": {},
                        "limited": { "limits": [ { "counter": "limited", "window": "hour", "max": 2, "scope": "session" } ] },
                        "audit_me": { "mode": "monitor", "action": "deny", "reason": "would be blocked" }
                      }
                    }
                  }
                }
                """.replace("SECTION", serverSection());
    }

    LangChain4jApp app() {
        return app;
    }

    @BeforeAll
    void startApp() throws Exception {
        app = LangChain4jApp.start(getClass().getSimpleName(), version(), transport(), policy());
    }

    @AfterAll
    void stopAppAndCheckAgentHealth() throws Exception {
        try {
            assertThat(app.appLog()).as("agent errors\n%s", app.dump())
                    .noneMatch(line -> line.contains("advice error") || line.contains("NOT instrumented")
                            || line.contains("NOT policed") || line.contains("MORE than expected"))
                    .contains("[mcp-policy] canary: the hooks fire (a woven tools/call handler reached the policy)");
        } finally {
            app.close();
        }
    }

    @Test
    void hooksLangChain4jsOwnClientWithoutTheMcpSdk() throws Exception {
        app.sync();
        String hooks = (hasInvocationContext() ? "executeTool, executeTool(request, context), listTools, readResource, readResource(uri, context)"
                : "executeTool, listTools, readResource") + ", getPrompt, resource and prompt lists, initialize result";
        assertThat(app.appLog()).as(app.dump())
                .contains("[mcp-policy] instrumented dev.langchain4j.mcp.client.DefaultMcpClient (langchain4j-mcp " + mcpVersion()
                        + "): " + hooks)
                .anyMatch(line -> line.startsWith("[mcp-policy] policy ") && line.contains("sha256="))
                .noneMatch(line -> line.contains("instrumented io.modelcontextprotocol"));
    }

    @Test
    void offersTheModelOnlyTheToolsThePolicyLists() throws Exception {
        // client_hidden is hidden, wire_money denied outright: the model is never offered them
        assertThat(app.chat("list")).isEqualTo("TOOLS audit_me,echo,limited,run_command");
    }

    @Test
    void runsAnAllowedCallOnceAndTheModelSeesItsResult() throws Exception {
        app.sync();
        String decision = "decision=ALLOW tool=echo side=client server=" + serverSection() + " rule=/servers/" + serverSection() + "/tools/echo";
        int before = app.awaitAppLogCount(decision, 0).size();
        assertThat(app.chat("call echo {\"text\":\"hi\"}")).isEqualTo("TOOL echo SAID echo: hi");
        app.awaitServerLog(line -> line.equals("HANDLER RAN echo {text=hi}"));
        // the call and the sync after it: two decisions, one each
        app.sync();
        assertThat(app.awaitAppLogCount(decision, before + 2)).as(app.dump()).hasSize(before + 2);
        assertThat(count(app.serverLog(), "HANDLER RAN echo {text=hi}")).isEqualTo(1);
        String line = matching(app.appLog(), decision).get(before);
        assertThat(line).contains("client=fixture-lc4j").contains("arg_keys=text").contains("args_sha256=").doesNotContain("hi");
    }

    @Test
    void theModelIsToldOfTheDenialAndTheRmRfNeverReachesTheServer() throws Exception {
        String denial = "Policy denied tool 'run_command': denied by condition: command contains \"rm -rf\" [rule /servers/"
                + serverSection() + "/tools/run_command/deny_if/0]";
        assertThat(app.chat("call run_command {\"command\":\"rm -rf /\"}")).isEqualTo(said("run_command", true, denial));
        // the conversation goes on: the next tool call in it runs
        assertThat(app.chat("call run_command {\"command\":\"ls -l\"}")).isEqualTo("TOOL run_command SAID run_command done");
        app.sync();
        assertThat(app.serverLog()).as(app.dump()).contains("HANDLER RAN run_command {command=ls -l}")
                .noneMatch(line -> line.contains("rm -rf"));
        assertThat(app.appLog()).anyMatch(line -> line.contains("decision=DENY tool=run_command side=client server=" + serverSection()
                + " rule=/servers/" + serverSection() + "/tools/run_command/deny_if/0"));
    }

    @Test
    void readsTheArgumentsAsTheClientSendsThemSoADuplicateKeyOrAnArgvSmugglesNothing() throws Exception {
        // Jackson, which the client parses with, keeps the last of two equal keys: so does the agent
        assertThat(app.chat("call run_command {\"command\":\"ls\",\"command\":\"rm -rf /dup\"}"))
                .startsWith(said("run_command", true, "Policy denied tool 'run_command': "));
        assertThat(app.chat("call run_command {\"command\":[\"rm\",\"-rf\",\"/argv\"]}"))
                .startsWith(said("run_command", true, "Policy denied tool 'run_command': "));
        app.sync();
        assertThat(app.serverLog()).as(app.dump()).noneMatch(line -> line.contains("/dup") || line.contains("/argv"));
    }

    @Test
    void deniesADirectCallOfAToolDeniedOutrightOrHiddenWithoutSendingIt() throws Exception {
        assertThat(app.direct("wire_money", "{\"amount\":100}")).isEqualTo(directAnswer(true,
                "Policy denied tool 'wire_money': payments need a human [rule /servers/" + serverSection() + "/tools/wire_money]"));
        assertThat(app.direct("client_hidden", "{}")).isEqualTo(directAnswer(true,
                "Policy denied tool 'client_hidden': tool is hidden by policy [rule (hidden)]"));
        assertThat(app.direct("echo", "{\"text\":\"direct\"}")).isEqualTo(directAnswer(false, "echo: direct"));
        app.sync();
        assertThat(app.serverLog()).as(app.dump()).contains("HANDLER RAN echo {text=direct}")
                .noneMatch(line -> line.contains("wire_money") || line.contains("client_hidden"));
    }

    @Test
    void aHiddenToolTheModelAsksForAnywayIsNeverSent() throws Exception {
        // it was never offered, so LangChain4j itself refuses the call as a hallucinated tool
        assertThat(app.chat("call client_hidden {}")).startsWith("ERROR ").contains("client_hidden");
        app.sync();
        assertThat(app.serverLog()).as(app.dump()).noneMatch(line -> line.contains("client_hidden"));
    }

    @Test
    void validatesArgumentsAgainstTheInputSchemaTheServerListed() throws Exception {
        assertThat(app.chat("call echo {\"text\":42}")).isEqualTo(said("echo", true, "Policy denied tool 'echo': arguments do not match "
                + "the schema: at /text: expected string, got number [rule /servers/" + serverSection() + "/tools/echo/arguments]"));
        app.sync();
        assertThat(app.serverLog()).noneMatch(line -> line.contains("text=42"));
    }

    @Test
    void deniesWithRetryAfterOnceTheRateLimitIsExhausted() throws Exception {
        assertThat(app.chat("call limited {}")).isEqualTo("TOOL limited SAID limited done");
        assertThat(app.chat("call limited {}")).isEqualTo("TOOL limited SAID limited done");
        assertThat(app.chat("call limited {}")).startsWith(said("limited", true, "Policy denied tool 'limited': "))
                .contains("; retry after ").endsWith("[rule /servers/" + serverSection() + "/tools/limited/limits/0]");
        app.sync();
        assertThat(count(app.serverLog(), "HANDLER RAN limited")).isEqualTo(2);
    }

    @Test
    void monitorModeRunsTheCallAndLogsWhatItWouldHaveDenied() throws Exception {
        assertThat(app.chat("call audit_me {}")).isEqualTo("TOOL audit_me SAID audit_me done");
        app.awaitAppLog(line -> line.contains("decision=ALLOW would=DENY tool=audit_me side=client server=" + serverSection()));
    }

    static long count(List<String> lines, String fragment) {
        return lines.stream().filter(l -> l.contains(fragment)).count();
    }

    static List<String> matching(List<String> lines, String fragment) {
        return lines.stream().filter(l -> l.contains(fragment)).collect(Collectors.toList());
    }
}
