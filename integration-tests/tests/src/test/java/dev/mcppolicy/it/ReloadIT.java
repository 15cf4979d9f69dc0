package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.answer;
import static dev.mcppolicy.it.StdioRpc.call;
import static dev.mcppolicy.it.StdioRpc.callText;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static dev.mcppolicy.it.StdioRpc.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hot reload (SPEC §7, issue 12) on a real stdio server under the real agent, the policy changed the
 * ways files really change: written in place, renamed over, swapped by a Kubernetes-style {@code ..data}
 * symlink; an invalid version, a removed file, counters across a reload, and a reload while 50 calls
 * are in flight. Each test waits for the agent's own reload line, never for a time.
 */
class ReloadIT {
    private static final String DENIES_ECHO = """
            { "version": "1", "default": "deny", "tools": { "echo": { "action": "deny", "reason": "%s" } } }
            """;
    private static final String LIMITED = """
            { "version": "1", "default": "deny",
              "tools": { "limited": { "limits": [ { "counter": "limited", "window": "hour", "max": %d, "scope": "session" } ] } } }
            """;
    private static final Predicate<String> RELOADED = line -> line.startsWith("[mcp-policy] policy reloaded: ");

    @Test
    void inPlaceWritesRenamesInvalidVersionsAndARemovedFile() throws Exception {
        Path dir = Fixtures.workDir("ReloadIT-edits");
        Path policy = dir.resolve("mcp-policy.json");
        Files.writeString(policy, Policies.SERVER);
        try (ForkedJvm server = StdioRpc.start("ReloadIT-edits", "2.1.0", dir, List.of(), "")) {
            initialize(server);
            assertThat(callText(server, "c0", "echo", "{\"text\":\"v1\"}")).isEqualTo("echo: v1");
            assertThat(server.stderr()).anyMatch(line -> line.startsWith("[mcp-policy] reload: watching " + policy.toAbsolutePath()));

            Files.writeString(policy, DENIES_ECHO.formatted("in place"));
            awaitLines(server, RELOADED, 1);
            assertThat(callText(server, "c1", "echo", "{}")).isEqualTo("Policy denied tool 'echo': in place [rule /tools/echo]");

            renameOver(policy, DENIES_ECHO.formatted("renamed over"));
            awaitLines(server, RELOADED, 2);
            assertThat(callText(server, "c2", "echo", "{}")).isEqualTo("Policy denied tool 'echo': renamed over [rule /tools/echo]");

            Files.writeString(policy, "{ \"version\": \"1\", \"defualt\": \"allow\" }");
            String rejected = server.awaitStderr(line -> line.contains("ERROR policy reload rejected: "));
            assertThat(rejected).contains("(1 error); the policy in force stays (sha256=");
            server.awaitStderr(line -> line.contains("/defualt") && line.contains("unknown key 'defualt'"));
            assertThat(callText(server, "c3", "echo", "{}")).as("the version before stays in force")
                    .isEqualTo("Policy denied tool 'echo': renamed over [rule /tools/echo]");

            Files.delete(policy);
            server.awaitStderr(line -> line.startsWith("[mcp-policy] WARN policy file removed: " + policy.toAbsolutePath()));
            assertThat(callText(server, "c4", "echo", "{}")).isEqualTo("Policy denied tool 'echo': renamed over [rule /tools/echo]");

            Files.writeString(policy, DENIES_ECHO.formatted("written again"));
            awaitLines(server, RELOADED, 3);
            assertThat(callText(server, "c5", "echo", "{}")).isEqualTo("Policy denied tool 'echo': written again [rule /tools/echo]");

            // time from a change to the new policy deciding: 20 renames over, each followed by calls until one is judged by it
            List<Long> millis = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String reason = "round " + i;
                long start = System.nanoTime();
                renameOver(policy, DENIES_ECHO.formatted(reason));
                awaitLines(server, RELOADED, 4 + i);
                assertThat(callText(server, "t" + i, "echo", "{}")).contains(reason);
                millis.add((System.nanoTime() - start) / 1_000_000);
            }
            Collections.sort(millis);
            System.out.println("[reload] change to new policy deciding, median of 20: " + millis.get(10) + " ms (min "
                    + millis.get(0) + ", max " + millis.get(19) + ")");
            assertThat(server.stderr()).noneMatch(line -> line.contains("advice error"));
        }
    }

    @Test
    void aConfigMapSymlinkSwapKeepsTheCountersAndANewMaxAppliesToThem() throws Exception {
        Path dir = Fixtures.workDir("ReloadIT-configmap");
        Path first = Files.createDirectories(dir.resolve("..2026_12_01_first"));
        Files.writeString(first.resolve("mcp-policy.json"), LIMITED.formatted(2));
        Files.createSymbolicLink(dir.resolve("..data"), first.getFileName());
        Files.createSymbolicLink(dir.resolve("mcp-policy.json"), Path.of("..data/mcp-policy.json"));
        try (ForkedJvm server = StdioRpc.start("ReloadIT-configmap", "1.1.5", dir, List.of(), "")) {
            initialize(server);
            assertThat(callText(server, "l1", "limited", "{}")).isEqualTo("limited done");
            assertThat(callText(server, "l2", "limited", "{}")).isEqualTo("limited done");
            assertThat(callText(server, "l3", "limited", "{}")).startsWith("Policy denied tool 'limited': ").contains("retry after");

            // what the kubelet does: write a new directory, point a new link at it, rename the link over ..data
            Path second = Files.createDirectories(dir.resolve("..2026_12_01_second"));
            Files.writeString(second.resolve("mcp-policy.json"), LIMITED.formatted(3));
            Files.createSymbolicLink(dir.resolve("..data_tmp"), second.getFileName());
            Files.move(dir.resolve("..data_tmp"), dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
            awaitLines(server, RELOADED, 1);

            assertThat(callText(server, "l4", "limited", "{}")).as("2 of the new max of 3 were used before the swap")
                    .isEqualTo("limited done");
            assertThat(callText(server, "l5", "limited", "{}")).startsWith("Policy denied tool 'limited': ").contains("retry after");
            assertThat(server.stderr()).noneMatch(line -> line.contains("advice error"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.10.0", "2.1.0"})
    void aReloadWhileAClientKeepsFiftyCallsInFlightJudgesEachByOneWholePolicy(String sdkVersion) throws Exception {
        String name = "ReloadIT-inflight-" + sdkVersion;
        Path dir = Fixtures.workDir(name);
        Path policy = dir.resolve("mcp-policy.json");
        Files.writeString(policy, Policies.SERVER);
        try (ForkedJvm server = StdioRpc.start(name, sdkVersion, dir, List.of(), "audit=audit.jsonl")) {
            initialize(server);
            // a client that keeps 50 calls in flight: each answer lets it send one more, until 50 more have been
            // sent after the agent said the new policy is in force
            Predicate<String> isCall = line -> line.contains("\"id\":\"r");
            int sent = 0;
            int answered = 0;
            int stopAt = Integer.MAX_VALUE;
            List<String> window = new ArrayList<>();
            for (; sent < 50; sent++) {
                window.add(call("r" + sent, "echo", "{\"text\":\"" + sent + "\"}"));
            }
            server.sendAll(window);
            renameOver(policy, DENIES_ECHO.formatted("the new policy"));
            List<String> lines = List.of();
            while (answered < sent || sent < stopAt) {
                lines = server.awaitStdoutCount(isCall, answered + 1, Duration.ofSeconds(10));
                assertThat(lines.size()).as("an answer came\n%s", server.dump()).isGreaterThan(answered);
                answered = lines.size();
                if (stopAt == Integer.MAX_VALUE && server.stderr().stream().anyMatch(RELOADED)) {
                    stopAt = sent + 50;
                }
                while (sent - answered < 50 && sent < stopAt && sent < 5_000) {
                    server.send(call("r" + sent, "echo", "{\"text\":\"" + sent + "\"}"));
                    sent++;
                }
                if (sent >= 5_000) {
                    stopAt = sent;
                }
            }
            int total = sent;
            Map<String, List<JsonNode>> answers = CallMix.byId(lines);
            assertThat(answers).as(server.dump()).hasSize(total);
            int old = 0;
            int updated = 0;
            for (Map.Entry<String, List<JsonNode>> entry : answers.entrySet()) {
                assertThat(entry.getValue()).as("answered once: " + entry.getKey()).hasSize(1);
                JsonNode answer = entry.getValue().get(0);
                assertThat(answer.has("error")).as("no call errored: " + answer).isFalse();
                String text = text(answer);
                if (text.startsWith("echo: ")) {
                    old++;
                } else {
                    assertThat(text).isEqualTo("Policy denied tool 'echo': the new policy [rule /tools/echo]");
                    updated++;
                }
            }
            assertThat(updated).as("the 50 sent after the reload line, at least, are judged by the new policy").isGreaterThanOrEqualTo(50);
            List<String> decisions = server.awaitStderrCount(line -> line.contains("decision="), total, Duration.ofSeconds(5));
            assertThat(decisions).as("one decision per call, each by one of the two policies").hasSize(total)
                    .allMatch(line -> line.contains("decision=ALLOW tool=echo side=server rule=/tools/echo ")
                            || line.contains("decision=DENY tool=echo side=server rule=/tools/echo reason=\"the new policy\""));
            assertThat(decisions.stream().filter(line -> line.contains("decision=ALLOW")).count()).isEqualTo(old);
            assertThat(server.stderr().stream().filter(line -> line.contains("HANDLER RAN echo")).count()).isEqualTo(old);
            assertThat(AuditFiles.awaitLines(dir.resolve("audit.jsonl"), total)).hasSize(total);
            System.out.println("[reload] " + sdkVersion + ": 50 calls kept in flight across the reload, " + total + " in all: "
                    + old + " judged by the old policy, " + updated + " by the new, none lost or errored");
        }
    }

    private static void renameOver(Path policy, String text) throws Exception {
        Path temp = policy.resolveSibling(".mcp-policy.json.tmp");
        Files.writeString(temp, text);
        Files.move(temp, policy, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void awaitLines(ForkedJvm server, Predicate<String> match, int count) {
        server.awaitStderrCount(match, count, Duration.ofSeconds(5));
        assertThat(server.stderr().stream().filter(match).count()).as(server.dump()).isGreaterThanOrEqualTo(count);
    }
}
