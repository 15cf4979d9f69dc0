package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

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
        // the client shows structured content too (profile's)
        return McpPair.startWithServer(name, sdkVersion(), transport(), false, serverPolicy, clientPolicy, "", "", server, null,
                List.of("-Dfixture.structured=true"));
    }

    /**
     * A Quarkus tool hands over an object of its own as structured content (the fixture's {@code profile}: a record with
     * a planted GitHub token, the text without it); the agent reads it as the extension's {@code ObjectMapper} writes it
     * and redacts the token there, so the client gets the redacted JSON.
     */
    @Test
    void redactsASecretInStructuredContentTheAppHandsOverAsAnObjectOfItsOwn() throws Exception {
        McpPair pair = serverPair();
        assertThat(pair.call("profile", "{}")).as(pair.dump())
                .isEqualTo("RESULT isError=false text=the deploy profile structured={name=deploy, token=[REDACTED:github-pat]}");
        pair.sync();
        assertThat(decisions(pair.serverLog(), "tool=profile side=server")).hasSize(1).allMatch(line -> line.contains("redacted=github-pat:1"));
        assertThat(pair.clientLog()).noneMatch(line -> line.contains(GITHUB_TOKEN));
    }

    @Override
    List<String> serverHookLines() {
        String runtime = "\\[mcp-policy] instrumented io\\.quarkiverse\\.mcp\\.server\\.runtime\\.";
        return List.of(runtime + "ResourceMessageHandler .*: resources/read, resources/list",
                runtime + "ResourceTemplateMessageHandler .*: resources/templates/list", runtime + "PromptMessageHandler .*: prompts/get, prompts/list",
                runtime + "FeatureManagerBase .*: answers");
    }
}
