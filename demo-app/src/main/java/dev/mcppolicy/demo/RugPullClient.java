package dev.mcppolicy.demo;

import dev.mcppolicy.demo.client.RugPullSession;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The demo's second act ({@link RugPullSession}): a client app that starts {@code SandboxServer --rug-pull} over stdio.
 * Run it under the policy agent with the client's policy ({@code demo-app/mcp-client-policy.json}, {@code "pin": true});
 * the agent's lines (the pins, the WARN with both hashes, the decision lines) go to this JVM's stderr.
 *
 * <pre>
 * java -javaagent:mcp-policy-agent.jar=policy=demo-app/mcp-client-policy.json -cp demo-app.jar dev.mcppolicy.demo.RugPullClient
 * </pre>
 *
 * Exit status: 0 when the session ran, 1 when the server could not be reached.
 */
public final class RugPullClient {
    private RugPullClient() {
    }

    public static void main(String[] args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), SandboxServer.class.getName(), "--rug-pull"));
        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size())).build(), McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> System.err.println("[server] " + line));
        CompletableFuture<List<String>> changed = new CompletableFuture<>();
        System.out.println("== mcp-policy demo, act 2: a rug pull, refused by the client's pins ==");
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(Implementation.builder("demo-agent", "1.0").build())
                .requestTimeout(Duration.ofSeconds(30))
                .toolsChangeConsumer(tools -> changed.complete(RugPullSession.names(tools)))
                .build();
        int status = 0;
        try {
            new RugPullSession(client, System.out, changed).play();
        } catch (RuntimeException e) {
            System.out.println("The session stopped: " + e);
            status = 1;
        } finally {
            client.closeGracefully();
        }
        System.exit(status);
    }
}
