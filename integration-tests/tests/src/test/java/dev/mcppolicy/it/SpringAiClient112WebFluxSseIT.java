package dev.mcppolicy.it;

/**
 * Spring AI 1.1.2's WebFlux MCP client app over an SSE connection ({@code spring.ai.mcp.client.sse.connections}:
 * the SDK's {@code WebFluxSseClientTransport}) to the SDK 2.1.0 fixture server's SSE transport.
 */
class SpringAiClient112WebFluxSseIT extends SpringAiClient112WebFluxIT {
    @Override
    String transport() {
        return "sse";
    }
}
