package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.MethodShape.handlerLambda;

import java.util.List;

/**
 * {@code McpAsyncServer}: every stateful server (sync servers wrap it) over stdio, SSE and streamable
 * HTTP, SDK 0.10.0 to 2.2.0. Hooks the {@code tools/call} and {@code tools/list} handler lambdas, and those of
 * resources and prompts (SPEC §12), so each call is decided exactly once whichever transport or sync/async facade
 * carried it.
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

    /** {@code resources/read} (SPEC §12): as {@link #CALL}, through {@code PolicyBridge.serverRead}. */
    static final Weave READ = Weave.enterUnlessNull("serverRead", Weave.THIS, 0, 1, Weave.SELF);
    /** {@code prompts/get}: as {@link #CALL}, through {@code PolicyBridge.serverPrompt}. */
    static final Weave PROMPT = Weave.enterUnlessNull("serverPrompt", Weave.THIS, 0, 1, Weave.SELF);
    /** {@code resources/list}, {@code resources/templates/list}, {@code prompts/list}: filtered as {@link #LIST}. */
    static final Weave RESOURCES = Weave.replaceReturn("serverResources", 0);
    static final Weave TEMPLATES = Weave.replaceReturn("serverTemplates", 0);
    static final Weave PROMPTS = Weave.replaceReturn("serverPrompts", 0);

    /** The hooks of both server kinds: the same handler lambdas. */
    static List<Hook> serverHooks() {
        return List.of(
                new Hook("tools/call", handlerLambda("toolsCallRequestHandler"), CALL, 1, 1),
                new Hook("tools/list", handlerLambda("toolsListRequestHandler"), LIST, 1),
                new Hook("resources/read", handlerLambda("resourcesReadRequestHandler"), READ, 1, 1),
                new Hook("resources/list", handlerLambda("resourcesListRequestHandler"), RESOURCES, 1),
                new Hook("resources/templates/list", handlerLambda("resourceTemplateListRequestHandler"), TEMPLATES, 1),
                new Hook("prompts/get", handlerLambda("promptsGetRequestHandler"), PROMPT, 1, 1),
                new Hook("prompts/list", handlerLambda("promptsListRequestHandler"), PROMPTS, 1));
    }

    @Override
    public String internalName() {
        return "io/modelcontextprotocol/server/McpAsyncServer";
    }

    @Override
    public List<Hook> hooks() {
        return serverHooks();
    }
}
