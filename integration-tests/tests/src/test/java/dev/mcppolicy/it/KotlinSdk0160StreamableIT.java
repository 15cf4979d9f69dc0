package dev.mcppolicy.it;

/** The Kotlin MCP SDK 0.16.0 server over streamable HTTP (Ktor CIO, {@code /mcp}), its client the SDK 2.1.0 fixture client. */
class KotlinSdk0160StreamableIT extends AbstractKotlinScenarios {
    @Override
    String transport() {
        return "streamable";
    }
}
