package dev.mcppolicy.it;

import java.util.ArrayList;
import java.util.List;

/**
 * The shared resource scenarios (SPEC §12–§13) with the Quarkus MCP server fixture app (its catalog registered through the
 * extension's managers with {@code -Dfixture.catalog=true}) under the agent, and the SDK 2.1.0 fixture client.
 */
abstract class AbstractQuarkusResourceScenarios extends AbstractResourceScenarios {
    /** The {@code quarkus-mcp-server} version of the fixture app. */
    abstract String quarkusMcpVersion();

    @Override
    String sdkVersion() {
        return "2.1.0";
    }

    @Override
    McpPair startPair(String name, String serverPolicy, String clientPolicy, List<String> serverJvmArgs) throws Exception {
        List<String> server = new ArrayList<>(serverJvmArgs);
        if (!"stdio".equals(transport())) {
            server.addAll(List.of("-Dquarkus.mcp.server.stdio.enabled=false", "-Dquarkus.http.port=" + Fixtures.freePort()));
        }
        server.addAll(List.of("-jar", Fixtures.quarkusApp(quarkusMcpVersion()).toString()));
        return McpPair.startWithServer(name, sdkVersion(), transport(), false, serverPolicy, clientPolicy, "", "", server, null);
    }

    @Override
    List<String> serverHookLines() {
        String runtime = "\\[mcp-policy] instrumented io\\.quarkiverse\\.mcp\\.server\\.runtime\\.";
        return List.of(runtime + "ResourceMessageHandler .*: resources/read, resources/list",
                runtime + "ResourceTemplateMessageHandler .*: resources/templates/list", runtime + "PromptMessageHandler .*: prompts/get, prompts/list",
                runtime + "FeatureManagerBase .*: answers");
    }
}
