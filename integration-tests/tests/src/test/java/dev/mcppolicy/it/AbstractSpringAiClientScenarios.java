package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A Spring AI app as an MCP client (issue 11): its {@code ChatClient} gets its tools from the SDK 2.1.0
 * fixture server (spawned over stdio by the MCP client starter) through the starter's tool callbacks, and a
 * scripted chat model asks for echo, wire_money and run_command in one turn. The app's fat jar
 * ({@code fixtures/spring-ai-client-<version>}) runs with the real agent and a client-side policy; the fixture
 * server runs without the agent, so every denial proven here is the client's. One app JVM per class: the
 * conversation runs at its start, the tests read what it printed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractSpringAiClientScenarios {
    /** Boot's console pattern (date, level, pid, {@code --- [app] [thread]}, logger {@code :}), then a client-side decision. */
    private static final String BOOT_LINE = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) +%s +\\d+ --- "
            + "\\[spring-client] \\[[^\\]]*] mcp\\.policy +: mcp-policy decision=%s tool=%s side=client server=fixture-server .*";

    /**
     * Default allow; wire_money and run_command denied by a deny_if (a tool denied outright is not listed, so a
     * model is never offered it: delete_everything), client_hidden hidden.
     */
    static final String CLIENT_POLICY = """
            {
              "version": "1",
              "default": "allow",
              "hide": ["client_hidden"],
              "servers": {
                "fixture-server": {
                  "default": "allow",
                  "tools": {
                    "delete_everything": { "action": "deny", "reason": "destructive tools are disabled" },
                    "wire_money": { "deny_if": [ { "path": "amount", "op": "gt", "value": 10 } ], "reason": "payments need a human" },
                    "run_command": { "arguments": "input_schema",
                                     "deny_if": [ { "path": "command", "op": "contains", "value": "rm -rf" } ] }
                  }
                }
              }
            }
            """;

    /** What the fixture server's stderr lines are, relayed into the app's log by the SDK's stdio client transport. */
    static final String RELAYED = "STDERR Message received: ";

    ForkedJvm app;

    /** The fixture module, {@code spring-ai-client-<this>}. */
    abstract String springAiFixture();

    /** More arguments for the app ({@code --spring.profiles.active=...}). */
    List<String> appArguments() {
        return List.of();
    }

    /** Waits until the app has held its conversation (it exits, or stays up to serve). */
    abstract void awaitConversation() throws Exception;

    @BeforeAll
    void startTheApp() throws Exception {
        Path dir = Fixtures.workDir(getClass().getSimpleName());
        Files.writeString(dir.resolve("mcp-policy.json"), CLIENT_POLICY);
        Path jar = Path.of(System.getProperty("fixtures.dir", "../fixtures"), "spring-ai-client-" + springAiFixture(), "target", "app.jar")
                .toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Spring AI client fixture " + springAiFixture() + " not built: " + jar);
        }
        String connection = "--spring.ai.mcp.client.stdio.connections.fixture.";
        List<String> command = new ArrayList<>(List.of(ForkedJvm.javaExecutable(), Fixtures.javaagent(""), "-jar", jar.toString(),
                connection + "command=" + ForkedJvm.javaExecutable(),
                connection + "args[0]=-cp", connection + "args[1]=" + Fixtures.classPath("2.1.0"),
                connection + "args[2]=fixture.FixtureServer", connection + "args[3]=stdio"));
        command.addAll(appArguments());
        app = ForkedJvm.startProcess(getClass().getSimpleName(), dir, command);
        awaitConversation();
    }

    @AfterAll
    void theAgentWasHealthyInTheApp() {
        try {
            app.awaitStderr(l -> l.equals("[mcp-policy] canary: the hooks fire (a woven tools/call handler reached the policy)"));
            assertThat(app.stderr()).as(app.dump())
                    .noneMatch(line -> line.contains("advice error") || line.contains("NOT instrumented")
                            || line.contains("NOT policed") || line.contains("MORE than expected"));
        } finally {
            app.close();
        }
    }

    @Test
    void theModelGetsTheDenialsAsToolResultsAndTheConversationEnds() {
        assertThat(app.stderr()).as(app.dump())
                .contains("CONVERSATION ENDED: all tool results seen")
                .noneMatch(l -> l.startsWith("CONVERSATION FAILED"))
                .anyMatch(l -> l.matches("MODEL SAW \\S*echo: .*echo: hi.*"))
                .anyMatch(l -> l.matches("MODEL SAW \\S*wire_money: .*" + java.util.regex.Pattern.quote(
                        "Policy denied tool 'wire_money': payments need a human [rule /servers/fixture-server/tools/wire_money/deny_if/0]") + ".*"))
                .anyMatch(l -> l.matches("MODEL SAW \\S*run_command: .*Policy denied tool 'run_command': .*"
                        + java.util.regex.Pattern.quote("[rule /servers/fixture-server/tools/run_command/deny_if/0]") + ".*"));
    }

    @Test
    void deniedCallsNeverReachTheServer() {
        assertThat(app.stderr()).as(app.dump())
                .anyMatch(l -> l.contains(RELAYED + "HANDLER RAN echo {text=hi}"))
                .noneMatch(l -> l.contains("HANDLER RAN wire_money"))
                .noneMatch(l -> l.contains("HANDLER RAN run_command"));
    }

    @Test
    void writesOneClientDecisionPerCallThroughTheAppsLogbackInBootsPattern() {
        assertThat(app.stderr()).as(app.dump())
                .anyMatch(l -> l.startsWith("[mcp-policy] decision log: SLF4J logger 'mcp.policy' (ch.qos.logback"))
                .filteredOn(l -> l.contains("mcp-policy decision="))
                .satisfiesExactlyInAnyOrder(
                        l -> assertThat(l).matches(BOOT_LINE.formatted("INFO", "ALLOW", "echo")),
                        l -> assertThat(l).matches(BOOT_LINE.formatted("WARN", "DENY", "wire_money"))
                                .contains("rule=/servers/fixture-server/tools/wire_money/deny_if/0 "),
                        l -> assertThat(l).matches(BOOT_LINE.formatted("WARN", "DENY", "run_command"))
                                .contains("rule=/servers/fixture-server/tools/run_command/deny_if/0 "));
    }

    @Test
    void offersTheModelNoToolTheClientPolicyHidesOrDeniesOutright() {
        List<String> offered = app.stderr().stream().filter(l -> l.startsWith("TOOL CALLBACKS ") || l.startsWith("MODEL OFFERED ")).toList();
        assertThat(offered).as(app.dump()).hasSize(2)
                .allMatch(l -> l.contains("echo") && l.contains("wire_money") && l.contains("run_command") && l.contains("secret_tool"))
                .noneMatch(l -> l.contains("client_hidden") || l.contains("delete_everything"));
    }
}
