package dev.mcppolicy.it;

/** SPEC §12–§13 on the Kotlin MCP SDK 0.16.0 over stdio: a Kotlin client and a Kotlin server, both under the agent. */
class KotlinSdk0160ResourcesIT extends AbstractKotlinResourceScenarios {
    @Override
    String transport() {
        return "stdio";
    }
}
