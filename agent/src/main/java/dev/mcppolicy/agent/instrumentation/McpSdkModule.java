package dev.mcppolicy.agent.instrumentation;

import java.util.ArrayList;
import java.util.List;

/**
 * The official MCP Java SDK, {@code io.modelcontextprotocol.sdk:mcp} 0.10.0 to 2.1.0
 * (research/sdk-points.md): one server dispatch point per server kind and the async client, which the
 * sync facades delegate to, so no call is decided twice; and the HTTP transports, for the caller's identity.
 */
public final class McpSdkModule {
    public static final String VERSIONS = "0.10.0 - 2.1.0";

    private McpSdkModule() {
    }

    public static List<TypeInstrumentation> instrumentations() {
        List<TypeInstrumentation> all = new ArrayList<>(List.of(new McpAsyncServerInstrumentation(),
                new McpStatelessAsyncServerInstrumentation(), new McpAsyncClientInstrumentation()));
        for (String transport : McpTransportInstrumentation.TRANSPORTS) {
            all.add(new McpTransportInstrumentation(transport));
        }
        return List.copyOf(all);
    }
}
