package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.callText;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 16: an agent started with the JVM hashes with its own SHA-256 while the app starts, and with the JDK's once
 * the app serves (its first decision, or a deadline); the hashes are the same either way. Proven in a real stdio
 * server under the agent: the JDK's SHA-256 class is not loaded by {@code initialize}, and the same arguments give
 * the same {@code args_sha256}, the JDK's hash of their canonical JSON, before and after the switch.
 */
class DigestSwitchIT {
    private static final String SWITCHED = "[mcp-policy] DEBUG hashes: the JDK's SHA-256 from now on";

    @Test
    void theFirstDecisionMovesTheHashesToTheJdksDigestAndTheyStayTheSame() throws Exception {
        Path dir = Fixtures.workDir("DigestSwitchIT");
        Path policy = dir.resolve("mcp-policy.json");
        Files.writeString(policy, Policies.SERVER);
        Path classes = dir.resolve("classes.log");
        try (ForkedJvm server = StdioRpc.start("DigestSwitchIT", "2.1.0", dir, List.of("-Xlog:class+load=info:file=" + classes,
                // the agent's own deadline out of the way: on a slow box the start may take longer than 10 s
                "-Ddev.mcppolicy.test.digest_latest_ms=600000"), "debug=true")) {
            initialize(server);
            String loaded = server.awaitStderr(line -> line.contains("[mcp-policy] policy ") && line.contains(" sha256="));
            assertThat(loaded).as("the policy's hash, made with the agent's own SHA-256")
                    .contains(" sha256=" + sha256(Files.readAllBytes(policy)) + " ");
            assertThat(Files.readAllLines(classes)).as("no JDK SHA-256 while the app starts")
                    .anyMatch(l -> l.contains("dev.mcppolicy.json.Sha256 "))
                    .noneMatch(l -> l.contains("sun.security.provider.SHA2 "));
            assertThat(server.stderr()).noneMatch(line -> line.startsWith(SWITCHED));

            assertThat(callText(server, "1", "echo", "{\"text\":\"caf\u00e9\"}")).isEqualTo("echo: caf\u00e9");
            // the first decision wakes the switch before its line is written: that line's hash is made with either digest
            assertThat(server.awaitStderr(line -> line.startsWith(SWITCHED))).endsWith("(the app made its first decision)");
            assertThat(callText(server, "2", "echo", "{\"text\":\"caf\u00e9\"}")).isEqualTo("echo: caf\u00e9");

            List<String> decisions = server.awaitStderrCount(line -> line.contains("decision=ALLOW tool=echo"), 2, java.time.Duration.ofMillis(200));
            String expected = "args_sha256=" + sha256("{\"text\":\"caf\u00e9\"}".getBytes(StandardCharsets.UTF_8)) + " ";
            assertThat(decisions).hasSize(2).allMatch(line -> line.contains(expected), "has " + expected);
            assertThat(Files.readAllLines(classes)).anyMatch(l -> l.contains("sun.security.provider.SHA2 "));
        }
    }

    @Test
    void withNoDecisionTheHashesMoveAtTheDeadline() throws Exception {
        Path dir = Fixtures.workDir("DigestSwitchIT-latest");
        Files.writeString(dir.resolve("mcp-policy.json"), Policies.SERVER);
        try (ForkedJvm server = StdioRpc.start("DigestSwitchIT-latest", "2.1.0", dir, List.of("-Ddev.mcppolicy.test.digest_latest_ms=300"),
                "debug=true")) {
            initialize(server);
            assertThat(server.awaitStderr(line -> line.startsWith(SWITCHED))).endsWith("(no decision yet)");
            String expected = "args_sha256=" + sha256("{\"text\":\"a\"}".getBytes(StandardCharsets.UTF_8)) + " ";
            assertThat(callText(server, "1", "echo", "{\"text\":\"a\"}")).isEqualTo("echo: a");
            assertThat(server.awaitStderr(line -> line.contains("decision=ALLOW tool=echo"))).contains(expected);
        }
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
