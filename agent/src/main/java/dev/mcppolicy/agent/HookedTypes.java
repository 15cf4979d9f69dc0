package dev.mcppolicy.agent;

import java.util.Set;

/**
 * The internal names of the SDK (and LangChain4j MCP client, Quarkus MCP server, Kotlin MCP SDK) types the hooks apply to, as plain strings: the premain-time filter
 * must not load the instrumentation classes to learn them. {@code HookInstaller} checks that its instrumentations agree.
 */
public final class HookedTypes {
    public static final Set<String> INTERNAL_NAMES = Set.of(
            "io/modelcontextprotocol/server/McpAsyncServer",
            "io/modelcontextprotocol/server/McpStatelessAsyncServer",
            "io/modelcontextprotocol/client/McpAsyncClient",
            "io/modelcontextprotocol/spec/McpServerSession",
            "io/modelcontextprotocol/server/transport/HttpServletStreamableServerTransportProvider",
            "io/modelcontextprotocol/server/transport/HttpServletSseServerTransportProvider",
            "io/modelcontextprotocol/server/transport/HttpServletStatelessServerTransport",
            "io/modelcontextprotocol/server/transport/WebMvcStreamableServerTransportProvider",
            "io/modelcontextprotocol/server/transport/WebMvcSseServerTransportProvider",
            "io/modelcontextprotocol/server/transport/WebMvcStatelessServerTransport",
            "io/modelcontextprotocol/server/transport/WebFluxStreamableServerTransportProvider",
            "io/modelcontextprotocol/server/transport/WebFluxSseServerTransportProvider",
            "io/modelcontextprotocol/server/transport/WebFluxStatelessServerTransport",
            "org/springframework/ai/mcp/server/webmvc/transport/WebMvcStreamableServerTransportProvider",
            "org/springframework/ai/mcp/server/webmvc/transport/WebMvcSseServerTransportProvider",
            "org/springframework/ai/mcp/server/webmvc/transport/WebMvcStatelessServerTransport",
            "org/springframework/ai/mcp/server/webflux/transport/WebFluxStreamableServerTransportProvider",
            "org/springframework/ai/mcp/server/webflux/transport/WebFluxSseServerTransportProvider",
            "org/springframework/ai/mcp/server/webflux/transport/WebFluxStatelessServerTransport",
            "io/modelcontextprotocol/server/transport/StdioServerTransportProvider$StdioMcpSessionTransport",
            "io/modelcontextprotocol/client/transport/StdioClientTransport",
            "dev/langchain4j/mcp/client/DefaultMcpClient",
            "dev/langchain4j/mcp/client/ToolSpecificationHelper",
            "io/modelcontextprotocol/modern/server/feature/ToolsFeature",
            "io/modelcontextprotocol/modern/server/feature/ResourcesFeature",
            "io/modelcontextprotocol/modern/server/feature/PromptsFeature",
            "io/modelcontextprotocol/modern/server/transport/HttpServletMcpTransport",
            "io/modelcontextprotocol/modern/client/McpSyncClient$ToolSpec",
            "io/modelcontextprotocol/modern/client/McpAsyncClient$ToolSpec",
            "io/modelcontextprotocol/modern/client/McpSyncClient$ResourceSpec",
            "io/modelcontextprotocol/modern/client/McpAsyncClient$ResourceSpec",
            "io/modelcontextprotocol/modern/client/McpSyncClient$PromptSpec",
            "io/modelcontextprotocol/modern/client/McpAsyncClient$PromptSpec",
            "io/modelcontextprotocol/modern/client/McpSyncClient$ListToolsSpec",
            "io/modelcontextprotocol/modern/client/McpAsyncClient$ListToolsSpec",
            "io/modelcontextprotocol/modern/client/McpSyncClient$ListSpec",
            "io/modelcontextprotocol/modern/client/McpAsyncClient$ListSpec",
            "io/quarkiverse/mcp/server/runtime/ResourceMessageHandler",
            "io/quarkiverse/mcp/server/runtime/ResourceTemplateMessageHandler",
            "io/quarkiverse/mcp/server/runtime/PromptMessageHandler",
            "io/quarkiverse/mcp/server/runtime/FeatureManagerBase",
            "io/quarkiverse/mcp/server/runtime/ToolMessageHandler",
            "io/modelcontextprotocol/kotlin/sdk/server/Server",
            "io/modelcontextprotocol/kotlin/sdk/client/Client");

    /** The agent's own stand-in for a server dispatch, woven to prove the hooks fire (see {@code Canary}). */
    public static final String CANARY = "dev/mcppolicy/agent/canary/CanaryTarget";

    private HookedTypes() {
    }

    /** Whether the class of this internal name is woven: one of {@link #INTERNAL_NAMES} or the {@link #CANARY}. */
    public static boolean isHooked(String internalName) {
        return INTERNAL_NAMES.contains(internalName) || CANARY.equals(internalName);
    }
}
