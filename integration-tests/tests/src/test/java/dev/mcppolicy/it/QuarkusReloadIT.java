package dev.mcppolicy.it;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Hot reload (SPEC §7) under the Quarkus MCP server over stdio, its client the SDK 2.1.0 fixture client ({@link ReloadScenario}). */
class QuarkusReloadIT {
    @Test
    void theNextCallAndListFollowANewPolicyOnEitherSide() throws Exception {
        String name = "QuarkusReloadIT";
        List<String> server = List.of("-jar", Fixtures.quarkusApp("1.10.1").toString());
        try (McpPair pair = McpPair.startWithServer(name, "2.1.0", "stdio", false, Policies.SERVER, Policies.CLIENT, "", "", server, null)) {
            ReloadScenario.theNextCallAndListFollowANewPolicyOnEitherSide(pair, name);
        }
    }
}
