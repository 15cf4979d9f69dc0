package dev.mcppolicy.agent.pins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.PolicySnapshots;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.pins.PinsFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolPinsTest {
    private static final String A = "a".repeat(64);
    private static final String B = "b".repeat(64);
    private static final String C = "c".repeat(64);
    private static final String ADDRESS = "stdio:java -jar fs.jar";

    private static PolicySnapshot policy(String json) {
        return PolicySnapshots.of(json, (Path) null);
    }

    @Test
    void aPolicyWithoutPinsPinsNothing() {
        ToolPins pins = new ToolPins();
        PolicySnapshot policy = policy("{\"version\":\"1\",\"default\":\"allow\"}");
        assertThat(pins.pinsTools(policy)).isFalse();
        assertThat(pins.listed(policy, "fs", ADDRESS, null, Map.of("cat", A))).isEmpty();
        assertThat(pins.listed(policy, "fs", ADDRESS, null, Map.of("cat", B))).isEmpty();
        assertThat(pins.refusal(policy, "fs", ADDRESS, null, "cat")).isNull();
    }

    @Test
    void theFirstListPinsAndAChangedDefinitionIsHiddenAndDenied() {
        ToolPins pins = new ToolPins();
        PolicySnapshot policy = policy("{\"version\":\"1\",\"default\":\"allow\",\"pin\":true}");
        assertThat(pins.listed(policy, "fs", ADDRESS, null, Map.of("cat", A, "ls", B))).isEmpty();
        assertThat(pins.refusal(policy, "fs", ADDRESS, null, "cat")).isNull();
        // the rug pull: cat's description changed, a tool appeared
        assertThat(pins.listed(policy, "fs", ADDRESS, null, Map.of("cat", C, "ls", B, "exfiltrate", A)))
                .containsExactlyInAnyOrder("cat", "exfiltrate");
        Decision changed = pins.refusal(policy, "fs", ADDRESS, null, "cat");
        assertThat(changed.effect()).isEqualTo(Effect.DENY);
        assertThat(changed.rule()).isEqualTo("/pin");
        assertThat(changed.callerMessage("cat")).isEqualTo("Policy denied tool 'cat': tool definition changed since it was pinned [rule /pin]");
        assertThat(pins.refusal(policy, "fs", ADDRESS, null, "exfiltrate").reason()).isEqualTo(ToolPins.NEW_REASON);
        assertThat(pins.refusal(policy, "fs", ADDRESS, null, "ls")).isNull();
        // the same server at another address, or another server, has its own pins
        assertThat(pins.listed(policy, "fs", "stdio:other", null, Map.of("cat", C))).isEmpty();
        // changed back: callable again
        assertThat(pins.listed(policy, "fs", ADDRESS, null, Map.of("cat", A, "ls", B))).isEmpty();
        assertThat(pins.refusal(policy, "fs", ADDRESS, null, "cat")).isNull();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> servers = (List<Map<String, Object>>) pins.view(policy).get("servers");
        assertThat(servers).hasSize(2);
    }

    @Test
    void pinNewAllowPinsANewToolAtFirstSightAndASectionCanTurnPinningOff() {
        ToolPins pins = new ToolPins();
        PolicySnapshot policy = policy("{\"version\":\"1\",\"default\":\"allow\",\"pin\":true,\"pin_new\":\"allow\","
                + "\"servers\":{\"trusted\":{\"pin\":false}}}");
        pins.listed(policy, "fs", ADDRESS, null, Map.of("cat", A));
        assertThat(pins.listed(policy, "fs", ADDRESS, null, Map.of("cat", A, "ls", B))).isEmpty();
        assertThat(pins.listed(policy, "fs", ADDRESS, null, Map.of("cat", A, "ls", C))).containsExactly("ls");
        pins.listed(policy, "trusted", "url:x", "trusted", Map.of("cat", A));
        assertThat(pins.listed(policy, "trusted", "url:x", "trusted", Map.of("cat", B))).isEmpty();
        assertThat(pins.refusal(policy, "trusted", "url:x", "trusted", "cat")).isNull();
    }

    @Test
    void pagesOfTheFirstListAreAllPinned() {
        ToolPins pins = new ToolPins();
        PolicySnapshot policy = policy("{\"version\":\"1\",\"default\":\"allow\",\"pin\":true}");
        assertThat(pins.listed(policy, "fs", ADDRESS, null, Map.of("cat", A), true)).isEmpty();
        assertThat(pins.listed(policy, "fs", ADDRESS, null, Map.of("ls", B), false)).isEmpty();
        assertThat(pins.listed(policy, "fs", ADDRESS, null, Map.of("rm", C), false)).containsExactly("rm");
    }

    @Test
    void monitorModeHidesAndDeniesNothing() {
        ToolPins pins = new ToolPins();
        PolicySnapshot policy = policy("{\"version\":\"1\",\"default\":\"allow\",\"mode\":\"monitor\",\"pin\":true}");
        pins.listed(policy, "fs", ADDRESS, null, Map.of("cat", A));
        assertThat(pins.listed(policy, "fs", ADDRESS, null, Map.of("cat", B))).isEmpty();
        assertThat(pins.refusal(policy, "fs", ADDRESS, null, "cat")).isNull();
    }

    @Test
    void aPinsFileBesideThePolicyIsTheBaselineAndIsReadAgainWhenItChanges(@TempDir Path dir) throws Exception {
        Path policyFile = dir.resolve("mcp-policy.json");
        PinsFile.EMPTY.with("fs", Map.of("cat", A)).write(dir.resolve("mcp-pins.json"));
        String json = "{\"version\":\"1\",\"default\":\"allow\",\"pins\":\"mcp-pins.json\",\"servers\":{\"fs\":{\"pin_new\":\"deny\"}}}";
        PolicySnapshot policy = PolicySnapshots.of(json, policyFile);
        long[] now = {0};
        ToolPins pins = new ToolPins(() -> now[0]);
        pins.reloading(true);
        // the file, not the first list, is the baseline: a tool not in it is new, one that differs is changed
        assertThat(pins.listed(policy, "fs", ADDRESS, "fs", Map.of("cat", B, "ls", C))).containsExactlyInAnyOrder("cat", "ls");
        assertThat(pins.refusal(policy, "fs", ADDRESS, "fs", "cat").rule()).isEqualTo("/pins");
        assertThat(pins.refusal(policy, "fs", ADDRESS, "fs", "ls").rule()).isEqualTo("/servers/fs/pin_new");
        // the user re-pins (scan --pins): the file is read again
        now[0] += 1_100_000_000L; // past the one-second re-check; the rewrite is a new file (moved over it)
        PinsFile.EMPTY.with("fs", Map.of("cat", B, "ls", C)).write(dir.resolve("mcp-pins.json"));
        assertThat(pins.refusal(policy, "fs", ADDRESS, "fs", "cat")).isNull();
        assertThat(pins.listed(policy, "fs", ADDRESS, "fs", Map.of("cat", B, "ls", C))).isEmpty();
        // a file that cannot be read fails closed
        now[0] += 1_100_000_000L; // past the one-second re-check; the rewrite is a new file (moved over it)
        Files.writeString(dir.resolve("mcp-pins.json"), "{\"version\":\"1\"");
        assertThat(pins.listed(policy, "fs", ADDRESS, "fs", Map.of("cat", B))).containsExactly("cat");
        assertThat(pins.refusal(policy, "fs", ADDRESS, "fs", "cat").reason()).isEqualTo(ToolPins.UNREADABLE_REASON);
        assertThat(pins.view(policy).get("file")).asString().contains("error");
    }
}
