package dev.mcppolicy.examples.sdk;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An MCP server on the plain MCP Java SDK, over stdio, with the tools of E2B's MCP server (their names and
 * arguments as it publishes them) and no policy code: {@code java -javaagent:mcp-policy-agent.jar -jar sdk-app.jar}
 * adds the policy. The tools run nothing (this is an example): each answers with what the sandbox would have done.
 */
public final class SandboxServer {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxServer.class);

    private SandboxServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        StdinEnd stdin = new StdinEnd(System.in);
        McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(json, stdin, System.out))
                .serverInfo("e2b-sandbox-example", "1.0")
                .capabilities(ServerCapabilities.builder().tools(false).build())
                .tools(tools(json))
                .build();
        LOG.info("serving E2B's sandbox tools over stdio (dry run: no command is executed)");
        stdin.await();
        LOG.info("stdin closed; stopping");
        server.closeGracefully();
        // the session is over: end the JVM even if a library left a non-daemon thread behind
        System.exit(0);
    }

    static List<SyncToolSpecification> tools(McpJsonMapper json) {
        return List.of(
                tool(json, "run_command", "Run a command in the sandbox", """
                        {"type": "object", "required": ["command", "sandboxId"], "properties": {
                          "command": {"type": "string", "description": "the command to run"},
                          "sandboxId": {"type": "string", "description": "the sandbox to run it in"},
                          "background": {"type": "boolean", "description": "run it in the background", "default": false}}}""",
                        arguments -> "dry run: sandbox " + arguments.get("sandboxId") + " would run '" + arguments.get("command") + "'"
                                + (Boolean.TRUE.equals(arguments.get("background")) ? " in the background" : "")),
                tool(json, "read_file", "Read a file from the sandbox", """
                        {"type": "object", "required": ["filePath", "sandboxId"], "properties": {
                          "filePath": {"type": "string"}, "sandboxId": {"type": "string"}}}""",
                        arguments -> "dry run: sandbox " + arguments.get("sandboxId") + " would return the content of "
                                + arguments.get("filePath")),
                tool(json, "run_code", "Run Python code in the sandbox (Jupyter notebook syntax)", """
                        {"type": "object", "required": ["code"], "properties": {"code": {"type": "string"}}}""",
                        arguments -> "dry run: a sandbox would run the code"),
                tool(json, "kill_sandbox", "Kill a sandbox", """
                        {"type": "object", "required": ["sandboxId"], "properties": {"sandboxId": {"type": "string"}}}""",
                        arguments -> "dry run: sandbox " + arguments.get("sandboxId") + " would be killed"));
    }

    private static SyncToolSpecification tool(McpJsonMapper json, String name, String description, String inputSchema,
            Function<Map<String, Object>, String> answer) {
        return SyncToolSpecification.builder()
                .tool(Tool.builder(name, json, inputSchema).description(description).build())
                .callHandler((exchange, request) -> {
                    LOG.info("{} called with {}", name, request.arguments());
                    return CallToolResult.builder().addTextContent(answer.apply(request.arguments())).build();
                })
                .build();
    }
}
