package dev.mcppolicy.agent;

import java.util.Set;

/**
 * The internal names of the SDK (and LangChain4j MCP client) types the hooks apply to, as plain strings: the premain-time filter
 * must not load the instrumentation classes to learn them. {@code HookInstaller} checks that its instrumentations agree.
 */
public final class HookedTypes {
    public static final Set<String> INTERNAL_NAMES = Set.of(
            "io/modelcontextprotocol/server/McpAsyncServer",
            "io/modelcontextprotocol/server/McpStatelessAsyncServer",
            "io/modelcontextprotocol/client/McpAsyncClient",
            "io/modelcontextprotocol/server/transport/HttpServletStreamableServerTransportProvider",
            "io/modelcontextprotocol/server/transport/HttpServletSseServerTransportProvider",
            "io/modelcontextprotocol/server/transport/HttpServletStatelessServerTransport",
            "io/modelcontextprotocol/server/transport/StdioServerTransportProvider$StdioMcpSessionTransport",
            "io/modelcontextprotocol/client/transport/StdioClientTransport",
            "dev/langchain4j/mcp/client/DefaultMcpClient");

    /** The agent's own stand-in for a server dispatch, woven to prove the hooks fire (see {@code Canary}). */
    public static final String CANARY = "dev/mcppolicy/agent/canary/CanaryTarget";

    private HookedTypes() {
    }
}
