package dev.mcppolicy.demo.peers;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A Java SDK 2.1.0 client program, run in a JVM of its own (under {@code -javaagent} in
 * {@link ServerEverythingIT}) against a stdio server whose command line is its arguments. It lists the
 * tools, makes a fixed series of calls and prints one line per step on stdout:
 * <pre>
 * server NAME
 * tools NAME,NAME,...
 * result LABEL {CallToolResult as JSON}      (or: error LABEL MESSAGE)
 * </pre>
 * The server's stderr goes to this JVM's stderr with a {@code [server]} prefix.
 */
public final class EverythingClient {
    private EverythingClient() {
    }

    public static void main(String[] args) throws IOException {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        StdioClientTransport transport = new StdioClientTransport(
                ServerParameters.builder(args[0]).args(List.of(args).subList(1, args.length)).build(), json);
        transport.setStdErrorHandler(line -> System.err.println("[server] " + line));
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(Implementation.builder("everything-it", "1.0").build())
                .requestTimeout(Duration.ofSeconds(60))
                .build();
        try {
            System.out.println("server " + client.initialize().serverInfo().name());
            System.out.println("tools " + client.listTools().tools().stream().map(Tool::name)
                    .collect(Collectors.joining(",")));
            call(client, json, "get-env", "get-env", Map.of());
            call(client, json, "echo", "echo", Map.of("message", "hello from a Java client under the agent"));
            call(client, json, "get-sum-small", "get-sum", Map.of("a", 2, "b", 3));
            call(client, json, "get-sum-large", "get-sum", Map.of("a", 1000, "b", 1));
        } finally {
            client.closeGracefully();
        }
        System.exit(0);
    }

    private static void call(McpSyncClient client, McpJsonMapper json, String label, String tool,
            Map<String, Object> arguments) throws IOException {
        try {
            CallToolResult result = client.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
            System.out.println("result " + label + " " + json.writeValueAsString(result));
        } catch (RuntimeException e) {
            System.out.println("error " + label + " " + e);
        }
    }
}
