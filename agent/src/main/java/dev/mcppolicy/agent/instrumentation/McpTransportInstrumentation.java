package dev.mcppolicy.agent.instrumentation;

import java.util.List;

/**
 * The SDK's servlet HTTP transports (0.14+) and Spring's WebMvc/WebFlux ones: wherever one asks the app's
 * {@code McpTransportContextExtractor} for the context of an HTTP request, the context it gets back
 * also answers the caller's hashed {@code Authorization} header. So {@code client}-scoped limits count
 * per credential on streamable HTTP, SSE and stateless servers, whether or not the app's extractor
 * records it (SPEC §11). Versions whose extractor has another shape (0.11-0.13) or that have none
 * (0.10) are left as they are, and identity falls back to {@code clientInfo.name}.
 */
public record McpTransportInstrumentation(String internalName) implements TypeInstrumentation {
    static final String EXTRACTOR = "io/modelcontextprotocol/server/McpTransportContextExtractor";

    /**
     * The transports, each hooked the same way: the servlet ones, and Spring's WebMvc and WebFlux ones
     * (the SDK's {@code mcp-spring-webmvc}/{@code -webflux} before 2.0, Spring AI's own from Spring AI 2.0),
     * which read the header from a Spring {@code ServerRequest}.
     */
    public static final List<String> TRANSPORTS = List.of(
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
            "io/modelcontextprotocol/modern/server/transport/HttpServletMcpTransport");

    private static final Weave CONTEXT = Weave.afterCall(EXTRACTOR, "extract", "transportContext");


    @Override
    public List<Hook> hooks() {
        return List.of(new Hook("transport context", MethodShape.anyMethod(), CONTEXT, 0));
    }
}
