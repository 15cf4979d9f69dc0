package dev.mcppolicy.it;

/** The Kotlin MCP SDK 0.16.0 over stdio: a Kotlin client and a Kotlin server, both under the agent. */
class KotlinSdk0160StdioIT extends AbstractKotlinScenarios {
    @Override
    String transport() {
        return "stdio";
    }
}
