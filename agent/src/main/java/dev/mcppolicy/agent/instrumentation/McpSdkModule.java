package dev.mcppolicy.agent.instrumentation;

import java.util.ArrayList;
import java.util.List;

/**
 * The official MCP Java SDK, {@code io.modelcontextprotocol.sdk:mcp} 0.10.0 to 2.2.0 (its classic API)
 * (research/sdk-points.md): one server dispatch point per server kind and the async client, which the
 * sync facades delegate to, so no call is decided twice; the HTTP transports (servlet, and Spring WebMvc and
 * WebFlux), for the caller's identity; the stdio/SSE server session, for cancels and closes of held calls;
 * and, unless turned off, the stdio transports before 2.1.0, whose concurrent sends lose messages.
 */
public final class McpSdkModule {
    public static final String VERSIONS = "0.10.0 - 2.2.0";

    private McpSdkModule() {
    }

    /** @param serializeStdio whether to carry 2.1.0's fix of lost stdio sends into older SDKs ({@code serialize_stdio}) */
    public static List<TypeInstrumentation> instrumentations(boolean serializeStdio) {
        List<TypeInstrumentation> all = new ArrayList<>(List.of(new McpAsyncServerInstrumentation(),
                new McpStatelessAsyncServerInstrumentation(), new McpAsyncClientInstrumentation(),
                new McpServerSessionInstrumentation()));
        for (String transport : McpTransportInstrumentation.TRANSPORTS) {
            all.add(new McpTransportInstrumentation(transport));
        }
        if (serializeStdio) {
            for (String transport : McpStdioTransportInstrumentation.TRANSPORTS) {
                all.add(new McpStdioTransportInstrumentation(transport));
            }
        }
        return List.copyOf(all);
    }
}
