package dev.mcppolicy.it;

/** SPEC §12–§13 on the Quarkus MCP server 1.13.0 (the newest served) over streamable HTTP. */
class Quarkus1130ResourcesIT extends AbstractQuarkusResourceScenarios {
    @Override
    String quarkusMcpVersion() {
        return "1.13.0";
    }

    @Override
    String transport() {
        return "streamable";
    }
}
