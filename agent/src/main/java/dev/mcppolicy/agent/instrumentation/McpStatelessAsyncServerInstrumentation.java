package dev.mcppolicy.agent.instrumentation;

import java.util.List;

/**
 * {@code McpStatelessAsyncServer} (SDK 0.11+; stateless sync servers wrap it): the same handler
 * lambdas as the stateful server, whose first argument is the {@code McpTransportContext}; the
 * stateful server's weaves take it as it is.
 */
public final class McpStatelessAsyncServerInstrumentation implements TypeInstrumentation {
    @Override
    public String internalName() {
        return "io/modelcontextprotocol/server/McpStatelessAsyncServer";
    }

    @Override
    public List<Hook> hooks() {
        return McpAsyncServerInstrumentation.serverHooks();
    }
}
