package dev.mcppolicy.agent.instrumentation;

import java.util.List;

/**
 * {@code McpStatelessAsyncServer} (SDK 0.11+; stateless sync servers wrap it): the same two handler
 * lambdas as the stateful server, whose first argument is the {@code McpTransportContext}; the
 * stateful server's advice takes it as it is.
 */
public final class McpStatelessAsyncServerInstrumentation implements TypeInstrumentation {
    @Override
    public String typeName() {
        return "io.modelcontextprotocol.server.McpStatelessAsyncServer";
    }

    @Override
    public List<Hook> hooks() {
        return List.of(
                new Hook("tools/call", SdkMatchers.handlerLambda("toolsCallRequestHandler"),
                        McpAsyncServerInstrumentation.CallAdvice.class, 1),
                new Hook("tools/list", SdkMatchers.handlerLambda("toolsListRequestHandler"),
                        McpAsyncServerInstrumentation.ListAdvice.class, 1));
    }
}
