package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A server whose policy is invalid fails closed: every call denied with the reason, nothing listed, the app alive. */
class InvalidPolicyIT {
    @ParameterizedTest
    @ValueSource(strings = {"0.10.0", "1.1.5", "2.1.0"})
    void deniesEveryCallAndKeepsTheAppAlive(String sdkVersion) throws Exception {
        try (McpPair pair = McpPair.start("InvalidPolicyIT-" + sdkVersion, sdkVersion, "stdio", Policies.INVALID,
                Policies.CLIENT, "", "")) {
            assertThat(pair.serverLog()).as(pair.dump())
                    .anyMatch(l -> l.startsWith("[mcp-policy] ERROR policy unavailable, every tool call will be denied "
                            + "(on_error=deny): ") && l.contains("mcp-policy.json"))
                    .anyMatch(l -> l.contains("/defualt (line 1, column 30): unknown key 'defualt'"));
            assertThat(pair.list()).isEqualTo("TOOLS ");
            assertThat(pair.call("echo", "{\"text\":\"hi\"}")).isEqualTo("RESULT isError=true text=Policy denied tool 'echo': "
                    + "policy unavailable: invalid policy mcp-policy.json (2 errors, listed in the agent's startup output) [rule (error)]");
            assertThat(pair.call("echo", "{\"text\":\"again\"}")).startsWith("RESULT isError=true");
            assertThat(pair.serverAlive()).isTrue();
            pair.awaitServerLog(l -> l.contains("decision=DENY tool=echo side=server rule=(error)"));
            assertThat(pair.serverLog()).noneMatch(l -> l.contains("HANDLER RAN"))
                    .anyMatch(l -> l.contains("decision=DENY tool=echo side=server rule=(error)"))
                    .noneMatch(l -> l.contains("advice error"));
        }
    }

    @Test
    void aMissingPolicyAlsoFailsClosed() throws Exception {
        try (McpPair pair = McpPair.start("MissingPolicyIT", "2.0.0", "stdio", Policies.SERVER, Policies.CLIENT,
                "policy=does-not-exist.json", "")) {
            assertThat(pair.call("echo", "{}")).startsWith("RESULT isError=true text=Policy denied tool 'echo': "
                    + "policy unavailable: policy file not found: ");
            pair.awaitServerLog(l -> l.contains("decision=DENY tool=echo side=server rule=(error)"));
            assertThat(pair.serverLog()).noneMatch(l -> l.contains("HANDLER RAN")).noneMatch(l -> l.contains("advice error"));
        }
    }

    @Test
    void failsOpenLoudlyWhenToldTo() throws Exception {
        try (McpPair pair = McpPair.start("FailOpenIT", "1.0.0", "stdio", Policies.INVALID, Policies.CLIENT,
                "on_error=allow", "")) {
            assertThat(pair.call("echo", "{\"text\":\"open\"}")).isEqualTo("RESULT isError=false text=echo: open");
            pair.awaitServerLog(l -> l.equals("HANDLER RAN echo {text=open}"));
            assertThat(pair.serverLog()).as(pair.dump())
                    .anyMatch(l -> l.startsWith("[mcp-policy] ERROR policy unavailable, every tool call will be ALLOWED unchecked"
                            + " (on_error=allow): "))
                    .anyMatch(l -> l.contains("WARN") && l.contains("decision=ALLOW tool=echo side=server rule=(error) reason=\"policy unavailable: "))
                    .noneMatch(l -> l.contains("advice error"));
        }
    }
}
