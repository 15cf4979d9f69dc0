package dev.mcppolicy.agent;

import dev.mcppolicy.agent.bootstrap.PolicyBridge;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.sdk.McpHooks;

/**
 * Plugs the hooks into the bridge. A class of its own because loading (verifying) it loads the bridge
 * types, which must come from the boot class path: it may only be touched after {@link BridgeJar} ran.
 */
final class BridgeWiring {
    private BridgeWiring() {
    }

    static void install(PolicyHolder policy, DecisionLog log) {
        PolicyBridge.install(new McpHooks(policy, log));
    }
}
