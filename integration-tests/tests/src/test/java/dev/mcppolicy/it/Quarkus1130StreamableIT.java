package dev.mcppolicy.it;

/** The newest Quarkus MCP server served here, 1.13.0, over streamable HTTP (its stdio extension is not served at 1.13). */
class Quarkus1130StreamableIT extends AbstractQuarkusScenarios {
    @Override
    String quarkusMcpVersion() {
        return "1.13.0";
    }

    @Override
    String transport() {
        return "streamable";
    }
}
