package dev.mcppolicy.it;

import java.util.List;

/**
 * SPEC §14 on the SDK 2.2 modern API's sync client over stdio: the protocol (2026-07-28) has no sessions to notify, so
 * the app finds the rug pull at its next {@code tools/list}; the changed and the new tool are hidden and refused there.
 */
class Sdk220ModernPinsIT extends AbstractPinScenarios {
    @Override
    String sdkVersion() {
        return McpPair.MODERN_SDK;
    }

    @Override
    String transport() {
        return "stdio";
    }

    @Override
    McpPair startPair(String serverPolicy, String clientPolicy, String clientAgent, List<String> serverJvmArgs) throws Exception {
        return McpPair.startModern(getClass().getSimpleName(), transport(), false, serverPolicy, clientPolicy, "", clientAgent, List.of(),
                serverJvmArgs);
    }

    @Override
    boolean announcesChanges() {
        return false;
    }
}
