package dev.mcppolicy.agent.instrumentation;

import java.util.List;

/**
 * The SDK's servlet HTTP transports (0.14+): wherever one asks the app's
 * {@code McpTransportContextExtractor} for the context of an HTTP request, the context it gets back
 * also answers the caller's hashed {@code Authorization} header. So {@code client}-scoped limits count
 * per credential on streamable HTTP, SSE and stateless servers, whether or not the app's extractor
 * records it (SPEC §11). Versions whose extractor has another shape (0.11-0.13) or that have none
 * (0.10) are left as they are, and identity falls back to {@code clientInfo.name}.
 */
public record McpTransportInstrumentation(String internalName) implements TypeInstrumentation {
    static final String EXTRACTOR = "io/modelcontextprotocol/server/McpTransportContextExtractor";

    /** The transports, each hooked the same way. */
    public static final List<String> TRANSPORTS = List.of(
            "io/modelcontextprotocol/server/transport/HttpServletStreamableServerTransportProvider",
            "io/modelcontextprotocol/server/transport/HttpServletSseServerTransportProvider",
            "io/modelcontextprotocol/server/transport/HttpServletStatelessServerTransport");

    private static final Weave CONTEXT = Weave.afterCall(EXTRACTOR, "extract", "transportContext");


    @Override
    public List<Hook> hooks() {
        return List.of(new Hook("transport context", MethodShape.anyMethod(), CONTEXT, 0));
    }
}
