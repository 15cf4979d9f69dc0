package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.MethodShape.handlerLambda;

import java.util.List;

/**
 * {@code McpStatelessAsyncServer} (SDK 0.11+; stateless sync servers wrap it): the same two handler
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
        return List.of(
                new Hook("tools/call", handlerLambda("toolsCallRequestHandler"), McpAsyncServerInstrumentation.CALL, 1, 1),
                new Hook("tools/list", handlerLambda("toolsListRequestHandler"), McpAsyncServerInstrumentation.LIST, 1));
    }
}
