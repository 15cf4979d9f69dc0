package dev.mcppolicy.it;

import static dev.mcppolicy.it.AbstractConcurrencyScenarios.INIT;
import static dev.mcppolicy.it.AbstractConcurrencyScenarios.INITIALIZED;
import static dev.mcppolicy.it.StdioRpc.answer;
import static dev.mcppolicy.it.StdioRpc.call;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static dev.mcppolicy.it.StdioRpc.tools;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 10 on a real stdio server under the real agent, on the oldest and the newest SDK, each held at
 * the exact point by one of the agent's test hooks ({@code dev.mcppolicy.agent.TestHooks}), not by a
 * sleep: calls that arrive while the policy is read wait without holding the SDK's inbound thread; a
 * policy swapped in during one call never mixes into that call; a {@code tools/list} that cannot be
 * filtered shows no tool under {@code on_error=deny}.
 */
class PolicySnapshotIT {
    private static final String SWAPPED_IN = """
            { "version": "1", "default": "deny",
              "tools": { "echo": { "action": "deny", "reason": "swapped in" } } }
            """;

    @ParameterizedTest
    @ValueSource(strings = {"0.10.0", "2.1.0"})
    void callsBeforeThePolicyIsReadWaitWithoutHoldingTheSdksInboundThread(String sdkVersion) throws Exception {
        String name = "PolicySnapshotIT-loading-" + sdkVersion;
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), Policies.SERVER);
        Path gate = dir.resolve("policy-gate");
        try (ForkedJvm server = start(name, sdkVersion, dir, "-Ddev.mcppolicy.test.policy_gate=" + gate, "")) {
            server.send(INIT.formatted("2024-11-05"));
            server.awaitStdout(0, line -> line.contains("\"id\":\"init\""));
            server.send(INITIALIZED);
            server.send(call("early-echo", "echo", "{\"text\":\"early\"}"));
            server.send(call("early-deny", "delete_everything", "{}"));
            server.send("{\"jsonrpc\":\"2.0\",\"id\":\"early-list\",\"method\":\"tools/list\",\"params\":{}}");
            server.send("{\"jsonrpc\":\"2.0\",\"id\":\"ping\",\"method\":\"ping\"}");

            server.awaitStdout(0, line -> line.contains("\"id\":\"ping\""));
            assertThat(server.stdout()).as("the ping came after them and was answered while they wait\n%s", server.dump())
                    .noneMatch(line -> line.contains("\"id\":\"early-"));
            assertThat(server.stderr()).noneMatch(line -> line.contains("decision=") || line.contains("HANDLER RAN"));

            Files.writeString(gate, "open");
            JsonNode echo = answer(server, "early-echo");
            JsonNode denied = answer(server, "early-deny");
            JsonNode listed = answer(server, "early-list");
            assertThat(echo.path("result").path("isError").asBoolean()).isFalse();
            assertThat(echo.path("result").path("content").path(0).path("text").asText()).isEqualTo("echo: early");
            assertThat(denied.path("result").path("content").path(0).path("text").asText())
                    .isEqualTo("Policy denied tool 'delete_everything': destructive tools are disabled [rule /tools/delete_everything]");
            assertThat(tools(listed)).contains("echo").doesNotContain("secret_tool", "delete_everything");

            server.awaitStderr(line -> line.contains("decision=DENY tool=delete_everything"));
            assertThat(server.stderr()).as(server.dump())
                    .containsOnlyOnce("HANDLER RAN echo {text=early}")
                    .noneMatch(line -> line.contains("HANDLER RAN delete_everything"))
                    .noneMatch(line -> line.contains("advice error") || line.contains("still loading"));
            assertThat(server.stderr().stream().filter(line -> line.contains("decision=")).toList())
                    .as("each waiting call decided once").hasSize(2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.10.0", "2.1.0"})
    void aPolicySwappedInDuringACallNeverJudgesThatCall(String sdkVersion) throws Exception {
        String name = "PolicySnapshotIT-swap-" + sdkVersion;
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), Policies.SERVER);
        Path next = dir.resolve("next-policy.json");
        Files.writeString(next, SWAPPED_IN);
        try (ForkedJvm server = start(name, sdkVersion, dir, "-Ddev.mcppolicy.test.swap_mid_call=" + next, "")) {
            initialize(server);
            // echo's rule checks the tool's input schema: the swap happens after that question, before the decision
            server.send(call("first", "echo", "{\"text\":\"old policy\"}"));
            JsonNode first = answer(server, "first");
            server.send(call("second", "echo", "{\"text\":\"new policy\"}"));
            JsonNode second = answer(server, "second");

            assertThat(first.path("result").path("content").path(0).path("text").asText())
                    .as("judged wholly by the policy it started with").isEqualTo("echo: old policy");
            assertThat(second.path("result").path("content").path(0).path("text").asText())
                    .isEqualTo("Policy denied tool 'echo': swapped in [rule /tools/echo]");
            server.awaitStderr(line -> line.contains("decision=DENY tool=echo"));
            assertThat(server.stderr()).as(server.dump())
                    .anyMatch(line -> line.contains("decision=ALLOW tool=echo side=server rule=/tools/echo "))
                    .containsOnlyOnce("HANDLER RAN echo {text=old policy}")
                    .noneMatch(line -> line.contains("HANDLER RAN echo {text=new policy}"))
                    .noneMatch(line -> line.contains("advice error"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"deny", "allow"})
    void aToolsListThatCannotBeFilteredShowsNoToolUnlessFailingOpen(String onError) throws Exception {
        String name = "PolicySnapshotIT-list-" + onError;
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), Policies.SERVER);
        try (ForkedJvm server = start(name, "1.1.5", dir, "-Ddev.mcppolicy.test.fail_list_filter=true", "on_error=" + onError)) {
            initialize(server);
            for (int i = 0; i < 3; i++) {
                server.send("{\"jsonrpc\":\"2.0\",\"id\":\"list-" + i + "\",\"method\":\"tools/list\",\"params\":{}}");
                JsonNode listed = answer(server, "list-" + i);
                List<String> tools = tools(listed);
                if (onError.equals("deny")) {
                    assertThat(tools).as("on_error=deny: no tool shown, not the unfiltered list\n%s", server.dump()).isEmpty();
                    assertThat(listed.has("error")).isFalse();
                } else {
                    assertThat(tools).as("on_error=allow: shown unfiltered").contains("echo", "secret_tool");
                }
            }
            server.send(call("echo", "echo", "{\"text\":\"still decided\"}"));
            assertThat(answer(server, "echo").path("result").path("content").path(0).path("text").asText())
                    .isEqualTo("echo: still decided");
            assertThat(server.stderr().stream().filter(line -> line.contains("advice error") && line.contains("tools/list filter")))
                    .as("reported once, not once per list\n%s", server.dump()).hasSize(1);
        }
    }

    private static ForkedJvm start(String name, String sdkVersion, Path dir, String testHook, String agentOptions) throws Exception {
        return StdioRpc.start(name, sdkVersion, dir, List.of(testHook), agentOptions);
    }
}
