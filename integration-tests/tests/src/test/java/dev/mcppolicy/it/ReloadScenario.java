package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Hot reload (SPEC §7) on a fixture client and server of any stack, started with {@link Policies#SERVER} and
 * {@link Policies#CLIENT} in the working directories of test {@code name}: a new policy written on either side decides
 * the next call and list, with no restart and without waiting for anything but the agent's reload line.
 */
final class ReloadScenario {
    private ReloadScenario() {
    }

    static void theNextCallAndListFollowANewPolicyOnEitherSide(McpPair pair, String name) throws Exception {
        // listed first: the client's policy checks run_command against the schema its server listed
        assertThat(pair.list()).isEqualTo("TOOLS audit_me,echo,limited,run_command");
        assertThat(pair.call("run_command", "{\"command\":\"ls\"}")).isEqualTo("RESULT isError=false text=run_command done");

        Path root = Fixtures.workPath(name);
        Files.writeString(root.resolve("server/mcp-policy.json"), Policies.SERVER.replace(
                "\"run_command\": { \"deny_if\"", "\"run_command\": { \"action\": \"deny\", \"reason\": \"reloaded\", \"deny_if\""));
        pair.awaitServerLog(line -> line.startsWith("[mcp-policy] policy reloaded: "));
        assertThat(pair.call("run_command", "{\"command\":\"ls\"}"))
                .isEqualTo("RESULT isError=true text=Policy denied tool 'run_command': reloaded [rule /tools/run_command]");
        assertThat(pair.list()).isEqualTo("TOOLS audit_me,echo,limited");

        Files.writeString(root.resolve("client/mcp-policy.json"), Policies.CLIENT.replace(
                "\"hide\": [\"client_hidden\"]", "\"hide\": [\"client_hidden\", \"limited\"]"));
        pair.awaitClientLog(line -> line.startsWith("[mcp-policy] policy reloaded: "));
        assertThat(pair.list()).isEqualTo("TOOLS audit_me,echo");
        assertThat(pair.call("limited", "{}")).startsWith("RESULT isError=true text=Policy denied tool 'limited': ")
                .endsWith("[rule (hidden)]");
        pair.sync();
        assertThat(pair.serverLog()).as(pair.dump()).noneMatch(line -> line.startsWith("HANDLER RAN limited"))
                .filteredOn(line -> line.startsWith("HANDLER RAN run_command")).hasSize(1);
        assertThat(pair.serverLog()).noneMatch(line -> line.contains("advice error"));
        assertThat(pair.clientLog()).noneMatch(line -> line.contains("advice error"));
    }
}
