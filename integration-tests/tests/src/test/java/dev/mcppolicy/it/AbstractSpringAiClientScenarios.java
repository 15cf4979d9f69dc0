package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A Spring AI app as an MCP client (issue 11): its {@code ChatClient} gets its tools from the SDK 2.1.0
 * fixture server (spawned over stdio by the MCP client starter, or on its own JVM over HTTP for the WebFlux client
 * starter: {@link #connection}) through the starter's tool callbacks, and a
 * scripted chat model asks for echo, wire_money and run_command in one turn. The app's fat jar
 * ({@code fixtures/spring-ai-client-<version>}) runs with the real agent and a client-side policy; the fixture
 * server runs without the agent, so every denial proven here is the client's. The app has the actuator and the
 * Prometheus registry: the agent's Micrometer meters show at {@code /actuator/prometheus} with no code in the app
 * (issue 12 §2). One app JVM per class: the conversation runs at its start, the tests read what it printed.
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
    private String url;

    /** The fixture module, {@code spring-ai-client-<this>}. */
    abstract String springAiFixture();

    @BeforeAll
    void startTheApp() throws Exception {
        Path dir = Fixtures.workDir(getClass().getSimpleName());
        Files.writeString(dir.resolve("mcp-policy.json"), CLIENT_POLICY);
        Path jar = Path.of(System.getProperty("fixtures.dir", "../fixtures"), "spring-ai-client-" + springAiFixture(), "target", "app.jar")
                .toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Spring AI client fixture " + springAiFixture() + " not built: " + jar);
        }
        List<String> command = new ArrayList<>(List.of(ForkedJvm.javaExecutable(), Fixtures.javaagent(""), "-jar", jar.toString()));
        command.addAll(connection(dir));
        // the actuator on a web server, 127.0.0.1 and a free port; the app says which once it serves
        command.add("--spring.profiles.active=" + profiles());
        app = ForkedJvm.startProcess(getClass().getSimpleName(), dir, command);
        String listening = app.awaitStderr(l -> l.startsWith("FIXTURE LISTENING "));
        url = "http://127.0.0.1:" + listening.substring("FIXTURE LISTENING ".length()).trim();
    }

    /**
     * The app's MCP connection, as command-line properties: here a stdio one, the app spawning the SDK 2.1.0
     * fixture server (no agent) whose stderr the SDK's stdio transport relays into the app's log.
     */
    List<String> connection(Path dir) throws Exception {
        String connection = "--spring.ai.mcp.client.stdio.connections.fixture.";
        return List.of(connection + "command=" + ForkedJvm.javaExecutable(),
                connection + "args[0]=-cp", connection + "args[1]=" + Fixtures.classPath("2.1.0"),
                connection + "args[2]=fixture.FixtureServer", connection + "args[3]=stdio");
    }

    /** The app's Spring profiles ({@code actuator}: a web server for the actuator). */
    String profiles() {
        return "actuator";
    }

    /** What the fixture server printed on stderr (its {@code HANDLER RAN ...} lines), as far as it is seen now. */
    List<String> serverLog() {
        return app.stderr().stream().filter(l -> l.contains(RELAYED)).map(l -> l.substring(l.indexOf(RELAYED) + RELAYED.length())).toList();
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
        assertThat(serverLog()).as(app.dump())
                .anyMatch(l -> l.contains("HANDLER RAN echo {text=hi}"))
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

    @Test
    void countsAndTimesEachDecisionOnTheActuatorsPrometheusEndpoint() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        List<String> lines = response.body().lines().filter(l -> l.startsWith("mcp_policy")).toList();
        System.out.println("mcp_policy lines at /actuator/prometheus:\n" + String.join("\n", lines));
        String echo = "{decision=\"ALLOW\",rule=\"(default)\",side=\"client\",tool=\"echo\"}";
        String wire = "{decision=\"DENY\",rule=\"/servers/fixture-server/tools/wire_money/deny_if/0\",side=\"client\",tool=\"wire_money\"}";
        assertThat(lines).as(response.body())
                .contains("mcp_policy_decisions_total" + echo + " 1.0", "mcp_policy_decision_seconds_count" + echo + " 1",
                        "mcp_policy_decisions_total" + wire + " 1.0", "mcp_policy_decision_seconds_count" + wire + " 1");
    }
}
