package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The shared tool-call scenarios against a Quarkus MCP server ({@code io.quarkiverse.mcp}): the fixture app's
 * {@code @Tool} methods ({@code fixtures/quarkus-mcp-<version>}), built as Quarkus' normal jar and run as
 * {@code java -javaagent:... -jar quarkus-run.jar}, so the extension is loaded by Quarkus' own class loader; the client
 * is the SDK 2.1.0 fixture client, policed too. One Quarkus JVM per class.
 */
abstract class AbstractQuarkusScenarios extends AbstractToolCallScenarios implements RequireScenario, UnknownToolScenario {
    /** Quarkus' console format: date, level, {@code [category]}, {@code (thread)}, message. */
    private static final String QUARKUS_LINE = "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} %s +\\[mcp\\.policy] \\([^)]*\\) "
            + "mcp-policy decision=%s tool=%s side=server .*";

    /** The {@code quarkus-mcp-server} version of the fixture app. */
    abstract String quarkusMcpVersion();

    /** The client: the SDK fixture client of the newest classic SDK the fixtures have. */
    @Override
    String sdkVersion() {
        return "2.1.0";
    }

    @Override
    McpPair startPair() throws IOException {
        List<String> server = new ArrayList<>();
        if (!"stdio".equals(transport())) {
            server.addAll(List.of("-Dquarkus.mcp.server.stdio.enabled=false", "-Dquarkus.http.port=" + Fixtures.freePort()));
            if ("sse".equals(transport())) {
                // the client finds the SSE endpoint under the path the app announces, /mcp/sse
                server.add("-Dfixture.http.path=/mcp");
            }
        }
        server.addAll(List.of("-jar", Fixtures.quarkusApp(quarkusMcpVersion()).toString()));
        return McpPair.startWithServer(getClass().getSimpleName(), sdkVersion(), transport(), false, serverPolicy(), Policies.CLIENT,
                "", "", server, serverStdout());
    }

    /** The shared policy with a {@code require} on echo ({@link RequireScenario}). */
    String serverPolicy() {
        return Policies.serverWithEchoRequire();
    }

    /** Over stdio, the file that gets a copy of the server's stdout; {@code null} for none. */
    String serverStdout() {
        return null;
    }

    @Override
    String serverHookLine() {
        return "\\[mcp-policy] instrumented io\\.quarkiverse\\.mcp\\.server\\.runtime\\.ToolMessageHandler \\(quarkus-mcp-server-core "
                + Pattern.quote(quarkusMcpVersion()) + "\\): tools/call, tools/list";
    }

    /** What the extension answers for a tool it does not have (the agent answers a hidden one the same). */
    @Override
    String[] unknownToolMessages() {
        return new String[] {"Invalid tool name: secret_tool"};
    }

    @AfterAll
    void theHooksFiredInTheQuarkusApp() {
        pair().awaitServerLog(line -> line.equals("[mcp-policy] canary: the hooks fire (a woven tools/call handler reached the policy)"));
    }

    @Test
    void writesDecisionsThroughTheAppsLoggingInQuarkusFormat() throws Exception {
        pair().call("echo", "{\"text\":\"quarkus\"}");
        pair().call("delete_everything", "{}");
        pair().sync();
        assertThat(pair().serverLog()).as(pair().dump())
                .anyMatch(l -> l.equals("[mcp-policy] decision log: SLF4J logger 'mcp.policy' (org.slf4j.impl.Slf4jLoggerFactory)"))
                .anyMatch(l -> l.matches(QUARKUS_LINE.formatted("INFO", "ALLOW", "echo")))
                .anyMatch(l -> l.matches(QUARKUS_LINE.formatted("WARN", "DENY", "delete_everything")));
    }


}
