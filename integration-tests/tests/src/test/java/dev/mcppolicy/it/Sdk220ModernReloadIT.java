package dev.mcppolicy.it;

import org.junit.jupiter.api.Test;

/**
 * Hot reload (SPEC §7) under the SDK 2.2 modern API's server and client over stdio ({@link ReloadScenario}).
 */
class Sdk220ModernReloadIT {
    @Test
    void theNextCallAndListFollowANewPolicyOnEitherSide() throws Exception {
        String name = "Sdk220ModernReloadIT";
        try (McpPair pair = McpPair.startModern(name, "stdio", false, Policies.SERVER, Policies.CLIENT, "", "")) {
            ReloadScenario.theNextCallAndListFollowANewPolicyOnEitherSide(pair, name);
        }
    }
}
