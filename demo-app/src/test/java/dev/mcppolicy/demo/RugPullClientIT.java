package dev.mcppolicy.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.demo.peers.Peers;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The demo's second act, as run-demo.sh runs it: the client app under the agent with its own policy
 * ({@code mcp-client-policy.json}, {@code "pin": true}) against {@code SandboxServer --rug-pull}. The server swaps
 * {@code read_file}'s description after its first answer; the app is never handed the poisoned tool and its call is
 * refused before it is sent.
 */
class RugPullClientIT {
    @Test
    void theClientsPinsRefuseThePoisonedTool() throws Exception {
        String jar = ForkedProcess.DEMO_JAR.toString();
        String agent = Peers.javaagent(Path.of(System.getProperty("demo.client.policy", "mcp-client-policy.json")));
        try (ForkedProcess client = ForkedProcess.java(agent, "-cp", jar, RugPullClient.class.getName())) {
            assertThat(client.awaitExit(Duration.ofMinutes(2))).as(client.stdout()).isZero();
            String all = client.stdout();
            assertThat(all).as(all).contains("Policy denied tool 'read_file': tool definition changed since it was pinned [rule /pin]",
                    "(no read_file: its definition changed)");
            assertThat(client.stderr()).as(all).anyMatch(line -> line.contains("[mcp-policy] pinned the ")
                    && line.contains("tool definitions of server 'sandbox-server'"));
            assertThat(client.stderr()).filteredOn(line -> line.contains("pin: tool definition changed since it was pinned"))
                    .hasSize(1).allMatch(line -> line.contains("tool 'read_file'") && line.matches(".*pinned=[0-9a-f]{64} now=[0-9a-f]{64}.*"));
            assertThat(client.stderr()).as("the poisoned call never reached the server")
                    .filteredOn(line -> line.startsWith("[server]") && line.contains("tool read_file -> ")).hasSize(1);
        }
    }
}
