package dev.mcppolicy.it;

/** The Quarkus MCP server 1.10.1 over HTTP with SSE ({@code /mcp/sse}, protocol 2024-11-05). */
class Quarkus1101SseIT extends AbstractQuarkusScenarios {
    @Override
    String quarkusMcpVersion() {
        return "1.10.1";
    }

    @Override
    String transport() {
        return "sse";
    }
}
