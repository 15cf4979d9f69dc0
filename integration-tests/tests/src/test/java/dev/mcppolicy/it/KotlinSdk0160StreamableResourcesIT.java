package dev.mcppolicy.it;

/** SPEC §12–§13 on the Kotlin MCP SDK 0.16.0 server over streamable HTTP (Ktor CIO), with the SDK 2.1.0 fixture client. */
class KotlinSdk0160StreamableResourcesIT extends AbstractKotlinResourceScenarios {
    @Override
    String transport() {
        return "streamable";
    }
}
