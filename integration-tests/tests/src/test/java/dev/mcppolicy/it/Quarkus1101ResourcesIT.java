package dev.mcppolicy.it;

/** SPEC §12–§13 on the Quarkus MCP server 1.10.1 (the oldest served) over stdio. */
class Quarkus1101ResourcesIT extends AbstractQuarkusResourceScenarios {
    @Override
    String quarkusMcpVersion() {
        return "1.10.1";
    }

    @Override
    String transport() {
        return "stdio";
    }
}
