package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Spring AI 1.1.2 on Spring Boot 3.5.7 (SDK 0.17.0) as an MCP client on {@code spring-ai-starter-mcp-client-webflux}:
 * the app runs on WebFlux (Reactor Netty) with the async MCP client ({@code spring.ai.mcp.client.type=ASYNC}), and
 * its connection is a streamable-HTTP one ({@code spring.ai.mcp.client.streamable-http.connections}), served by the
 * SDK's {@code WebClientStreamableHttpTransport}, to the SDK 2.1.0 fixture server on its own JVM with no agent
 * ({@link SpringAiClient112WebFluxSseIT}: an SSE one, {@code WebFluxSseClientTransport}).
 * The same scenarios as over stdio: each denial proven is the client agent's, woven into the SDK's
 * {@code McpAsyncClient} (the only client this app has).
 */
class SpringAiClient112WebFluxIT extends AbstractSpringAiClientScenarios {
    private ForkedJvm server;

    @Override
    String springAiFixture() {
        return "1.1.2-webflux";
    }

    @Override
    List<String> connection(Path dir) throws Exception {
        Path serverDir = Files.createDirectories(dir.resolve("server"));
        server = ForkedJvm.startProcess(getClass().getSimpleName() + "-server", serverDir, List.of(ForkedJvm.javaExecutable(),
                "-cp", Fixtures.classPath("2.1.0"), "fixture.FixtureServer", transport()));
        String listening = server.awaitStderr(l -> l.startsWith("FIXTURE LISTENING "));
        String url = "http://127.0.0.1:" + listening.substring("FIXTURE LISTENING ".length()).trim();
        if ("sse".equals(transport())) {
            String connection = "--spring.ai.mcp.client.sse.connections.fixture.";
            return List.of(connection + "url=" + url, connection + "sse-endpoint=/sse");
        }
        String connection = "--spring.ai.mcp.client.streamable-http.connections.fixture.";
        return List.of(connection + "url=" + url, connection + "endpoint=/mcp");
    }

    /** The fixture server's transport and the app's connection: {@code streamable} or {@code sse}. */
    String transport() {
        return "streamable";
    }

    @Override
    String profiles() {
        return "actuator,webflux";
    }

    /** The server's own stderr; it prints {@code HANDLER RAN echo} before it answers, so that line is awaited. */
    @Override
    List<String> serverLog() {
        server.awaitStderr(l -> l.contains("HANDLER RAN echo"));
        return server.stderr();
    }

    @Test
    void policesTheAsyncClientBehindTheAsyncToolCallbacks() {
        assertThat(app.stderr()).as(app.dump())
                .contains("[mcp-policy] instrumented io.modelcontextprotocol.client.McpAsyncClient (mcp-core 0.17.0): callTool, listTools, "
                        + AbstractToolCallScenarios.CLIENT_RESOURCE_HOOKS)
                .anyMatch(l -> l.startsWith("TOOL CALLBACKS ") && l.endsWith(" from AsyncMcpToolCallbackProvider"));
    }

    /** The app first (it is checked and closed by the scenarios), then the server it was connected to. */
    @AfterAll
    @Override
    void theAgentWasHealthyInTheApp() {
        try {
            super.theAgentWasHealthyInTheApp();
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }
}
