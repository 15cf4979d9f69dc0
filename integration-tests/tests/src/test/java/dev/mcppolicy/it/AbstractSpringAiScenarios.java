package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The shared tool-call scenarios against a Spring Boot MCP server on Spring AI (issue 11): the fixture
 * app's fat jar ({@code fixtures/spring-ai-<version>[-stdio|-webflux]}, its tools declared with {@code @Tool} and
 * {@code @McpTool}) run as {@code java -javaagent:... -jar app.jar}, so the SDK is loaded from a nested jar
 * by Boot's launcher; the client is the SDK fixture client of the SDK version that Spring AI brings. One
 * Spring JVM per class.
 */
abstract class AbstractSpringAiScenarios extends AbstractToolCallScenarios implements RequireScenario {
    /** Boot's console pattern: date, level, pid, {@code --- [app] [thread]}, logger, {@code :}, message. */
    private static final String BOOT_LINE = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) +%s +\\d+ --- "
            + "\\[fixture-server] \\[[^\\]]*] mcp\\.policy +: mcp-policy decision=%s tool=%s side=server .*";

    /** The fixture module, {@code spring-ai-<this>}: Spring AI's version, then {@code -stdio} or {@code -webflux} for the app on that starter (none: WebMvc). */
    abstract String springAiFixture();

    /** Spring AI's server starter takes the transport from the profile of the same name (see the app's properties). */
    @Override
    McpPair startPair() throws IOException {
        List<String> server = List.of("-jar", Fixtures.springApp(springAiFixture()).toString(),
                "--spring.profiles.active=" + transport());
        return McpPair.startWithServer(getClass().getSimpleName(), sdkVersion(), transport(), false, serverPolicy(), clientPolicy(),
                "", "", server, serverStdout());
    }

    /** The shared policy with a {@code require} on echo ({@link RequireScenario}). */
    String serverPolicy() {
        return Policies.serverWithEchoRequire();
    }

    String clientPolicy() {
        return Policies.CLIENT;
    }

    /** Over stdio, the file that gets a copy of the server's stdout; {@code null} for none. */
    String serverStdout() {
        return null;
    }

    @AfterAll
    void theHooksFiredInTheSpringApp() {
        pair().awaitServerLog(line -> line.equals("[mcp-policy] canary: the hooks fire (a woven tools/call handler reached the policy)"));
    }

    @Test
    void writesDecisionsThroughTheAppsLogbackInBootsPattern() throws Exception {
        pair().call("echo", "{\"text\":\"boot\"}");
        pair().call("delete_everything", "{}");
        pair().sync();
        assertThat(pair().serverLog()).as(pair().dump())
                .anyMatch(l -> l.startsWith("[mcp-policy] decision log: SLF4J logger 'mcp.policy' (ch.qos.logback"))
                .anyMatch(l -> l.matches(BOOT_LINE.formatted("INFO", "ALLOW", "echo")))
                .anyMatch(l -> l.matches(BOOT_LINE.formatted("WARN", "DENY", "delete_everything")));
    }


    @Test
    void namesTheSdkVersionLoadedFromTheFatJarsNestedJar() throws Exception {
        pair().sync();
        // the SDK is one jar, mcp, before 0.14 and mcp-core beside an mcp pom from then on; a stateless server is its own class
        assertThat(pair().serverLog()).as(pair().dump())
                .anyMatch(l -> l.matches("\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.server\\.Mcp(Stateless)?AsyncServer \\(mcp(-core)? "
                        + Pattern.quote(sdkVersion()) + "\\): tools/call, tools/list, " + AbstractToolCallScenarios.SERVER_RESOURCE_HOOKS))
                .noneMatch(l -> l.contains("version unknown"));
    }
}
