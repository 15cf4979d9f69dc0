package dev.mcppolicy.it;

import org.junit.jupiter.api.Test;

/** Hot reload (SPEC §7) under the Kotlin MCP SDK's server and client over stdio ({@link ReloadScenario}). */
class KotlinReloadIT {
    @Test
    void theNextCallAndListFollowANewPolicyOnEitherSide() throws Exception {
        String name = "KotlinReloadIT";
        try (McpPair pair = McpPair.startKotlin(name, "stdio", Policies.SERVER, Policies.CLIENT, "", "")) {
            ReloadScenario.theNextCallAndListFollowANewPolicyOnEitherSide(pair, name);
        }
    }
}
