package dev.mcppolicy.it;

import java.util.List;

/**
 * SPEC §14 on the Kotlin MCP SDK 0.16.0 client over stdio: the Kotlin fixture server's rug pull makes the SDK send
 * {@code notifications/tools/list_changed}; the fixture client lists again on it, as an app that keeps its tools current
 * does, and the agent hides the changed and the new tool there and refuses their calls.
 */
class KotlinSdk0160PinsIT extends AbstractPinScenarios {
    @Override
    String sdkVersion() {
        return McpPair.KOTLIN;
    }

    @Override
    String transport() {
        return "stdio";
    }

    @Override
    McpPair startPair(String serverPolicy, String clientPolicy, String clientAgent, List<String> serverJvmArgs) throws Exception {
        return McpPair.startKotlin(getClass().getSimpleName(), transport(), serverPolicy, clientPolicy, "", clientAgent, serverJvmArgs);
    }
}
