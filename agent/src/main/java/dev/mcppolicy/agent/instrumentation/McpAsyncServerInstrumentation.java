package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.MethodShape.handlerLambda;

import java.util.List;

/**
 * {@code McpAsyncServer}: every stateful server (sync servers wrap it) over stdio, SSE and streamable
 * HTTP, SDK 0.10.0 to 2.1.0. Hooks the {@code tools/call} and {@code tools/list} handler lambdas, so
 * each call is decided exactly once whichever transport or sync/async facade carried it.
 */
public final class McpAsyncServerInstrumentation implements TypeInstrumentation {
    /**
     * {@code tools/call}: {@code PolicyBridge.serverCall(server, exchangeOrContext, params, handler)} on
     * entry; a denial skips the handler and is returned instead. Argument 0 is the exchange (stateful
     * server) or the transport context (stateless server): passed as {@code Object}, one weave serves
     * both. {@code handler} is the lambda's own method handle, for calls that wait for the policy.
     */
    public static final Weave CALL = Weave.enterUnlessNull("serverCall", Weave.THIS, 0, 1, Weave.SELF);

    /** {@code tools/list}: the result becomes {@code PolicyBridge.serverList(result, exchangeOrContext)}. */
    static final Weave LIST = Weave.replaceReturn("serverList", 0);

    @Override
    public String internalName() {
        return "io/modelcontextprotocol/server/McpAsyncServer";
    }

    @Override
    public List<Hook> hooks() {
        return List.of(
                new Hook("tools/call", handlerLambda("toolsCallRequestHandler"), CALL, 1, 1),
                new Hook("tools/list", handlerLambda("toolsListRequestHandler"), LIST, 1));
    }
}
