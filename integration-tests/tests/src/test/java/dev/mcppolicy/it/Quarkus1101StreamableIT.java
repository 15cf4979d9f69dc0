package dev.mcppolicy.it;

/** The Quarkus MCP server 1.10.1 over streamable HTTP ({@code /mcp}, the HTTP extension). */
class Quarkus1101StreamableIT extends AbstractQuarkusScenarios {
    @Override
    String quarkusMcpVersion() {
        return "1.10.1";
    }

    @Override
    String transport() {
        return "streamable";
    }
}
