package dev.mcppolicy.agent.bridge;

/**
 * The one class the woven hooks call. Woven code never names it: it reaches these methods through
 * method handles resolved from JDK types only, with the bridge class loaded from the system class
 * loader, where the {@code -javaagent} jar is (see {@code Weave}). So code woven into an MCP class
 * finds it from any class loader (an app server's, Spring Boot's nested jars, an isolated plugin
 * loader, OSGi), and nothing is appended to the boot class path, which would turn off class data
 * sharing for the app's classes. SDK objects pass through as {@code Object}; the agent-side
 * {@link Hooks} does the work.
 *
 * <p>The value a hooked method was about to return comes first. Each method returns the value the
 * hooked method must return instead ({@code null} from
 * {@link #serverCall} means "run the tool"). A failure inside the hooks is reported by the hooks
 * themselves and answered according to {@code on_error}, with two exceptions that throw into the SDK
 * (which answers its caller with an error): a call the policy denied whose denial could not be built
 * (it must not run), and, with {@code on_error=deny}, a {@code tools/list} that could not be filtered.
 * {@link #emitSerialized} throws only what the SDK's own emission would have thrown.
 */
public final class PolicyBridge {
    /**
     * What a resource or prompt hook passes as its {@code kind}: the word {@code dev.mcppolicy.engine.Kind} has for it. A
     * string, not the enum: the bridge is on the system class loader and names no class of the agent's own loader.
     */
    static final String RESOURCE = "resource";
    static final String PROMPT = "prompt";

    private static volatile Hooks hooks;
    private static volatile LangChain4jHooks langchain4j;
    private static volatile ModernHooks modern;
    private static volatile QuarkusHooks quarkus;
    private static volatile KotlinHooks kotlin;

    private PolicyBridge() {
    }

    /** Called once by the agent before any MCP class is transformed. */
    public static void install(Hooks installed) {
        hooks = installed;
    }

    /**
     * Server {@code tools/call}: {@code null} to run the tool, else the {@code Mono} to answer with.
     * {@code server} is the {@code McpAsyncServer} / {@code McpStatelessAsyncServer}, or {@code null}
     * (a static handler lambda). {@code handler} is the hooked lambda's own {@code MethodHandle}, for a
     * call that must wait for the policy: the answer is then a {@code Mono} that decides once the
     * policy is read and, if allowed, runs the handler through it.
     */
    public static Object serverCall(Object server, Object exchangeOrContext, Object params, Object handler) {
        return hooks().serverCall(server, exchangeOrContext, params, handler);
    }

    /** Server {@code tools/list}: the {@code Mono<ListToolsResult>} to answer with. */
    public static Object serverList(Object result, Object exchangeOrContext) {
        return hooks().serverList(result, exchangeOrContext);
    }

    /**
     * Server {@code resources/read} (SPEC §12): {@code null} to run the handler, else the {@code Mono} to answer with;
     * the arguments as {@link #serverCall}'s.
     */
    public static Object serverRead(Object server, Object exchangeOrContext, Object params, Object handler) {
        return hooks().serverAsk(server, exchangeOrContext, params, handler, RESOURCE);
    }

    /** Server {@code prompts/get}: as {@link #serverRead}. */
    public static Object serverPrompt(Object server, Object exchangeOrContext, Object params, Object handler) {
        return hooks().serverAsk(server, exchangeOrContext, params, handler, PROMPT);
    }

    /** Server {@code resources/list}: the {@code Mono<ListResourcesResult>} to answer with. */
    public static Object serverResources(Object result, Object exchangeOrContext) {
        return hooks().serverListed(result, exchangeOrContext, RESOURCE, "resources", "uri");
    }

    /** Server {@code resources/templates/list}: the {@code Mono<ListResourceTemplatesResult>} to answer with. */
    public static Object serverTemplates(Object result, Object exchangeOrContext) {
        return hooks().serverListed(result, exchangeOrContext, RESOURCE, "resourceTemplates", "uriTemplate");
    }

    /** Server {@code prompts/list}: the {@code Mono<ListPromptsResult>} to answer with. */
    public static Object serverPrompts(Object result, Object exchangeOrContext) {
        return hooks().serverListed(result, exchangeOrContext, PROMPT, "prompts", "name");
    }

    /** Client {@code readResource}: the {@code Mono<ReadResourceResult>} to return, deciding at subscription. */
    public static Object clientRead(Object result, Object client, Object request) {
        return hooks().clientAsk(result, client, request, RESOURCE);
    }

    /** Client {@code getPrompt}: the {@code Mono<GetPromptResult>} to return, deciding at subscription. */
    public static Object clientPrompt(Object result, Object client, Object request) {
        return hooks().clientAsk(result, client, request, PROMPT);
    }

    /** Client {@code listResources}: the {@code Mono<ListResourcesResult>} to return. */
    public static Object clientResources(Object result, Object client) {
        return hooks().clientListed(result, client, RESOURCE, "resources", "uri");
    }

    /** Client {@code listResourceTemplates}: the {@code Mono<ListResourceTemplatesResult>} to return. */
    public static Object clientTemplates(Object result, Object client) {
        return hooks().clientListed(result, client, RESOURCE, "resourceTemplates", "uriTemplate");
    }

    /** Client {@code listPrompts}: the {@code Mono<ListPromptsResult>} to return. */
    public static Object clientPrompts(Object result, Object client) {
        return hooks().clientListed(result, client, PROMPT, "prompts", "name");
    }

    /** Client {@code callTool}: the {@code Mono<CallToolResult>} to return, deciding at subscription. */
    public static Object clientCall(Object result, Object client, Object request) {
        return hooks().clientCall(result, client, request);
    }

    /** Client {@code listTools}: the {@code Mono<ListToolsResult>} to return. */
    public static Object clientList(Object result, Object client) {
        return hooks().clientList(result, client);
    }

    /**
     * HTTP transports: the {@code McpTransportContext} the app's extractor made for {@code request},
     * as the SDK is to use it (the same, or one that also carries the caller's hashed credential).
     */
    public static Object transportContext(Object context, Object request) {
        return hooks().transportContext(context, request);
    }

    /**
     * The stdio transports of SDKs before 2.1.0: {@code sink.tryEmitNext(message)}, serialized with the
     * other sends on that sink; the {@code Sinks.EmitResult}. Throws what the emission itself throws.
     */
    public static Object emitSerialized(Object sink, Object message) {
        return hooks().emitSerialized(sink, message);
    }

    /**
     * {@code McpServerSession.handle(message)}, on entry: notes the request a {@code tools/call} hold answers, and
     * gives a held call up when the message is the client's {@code notifications/cancelled} for it. Returns
     * {@code null}: the message is always handled as it is.
     */
    public static Object serverMessage(Object session, Object message) {
        return hooks().serverMessage(session, message);
    }

    /** {@code McpServerSession.close()} / {@code closeGracefully()}, on entry: the session's held calls are given up. */
    public static Object serverSessionClosed(Object session) {
        return hooks().serverSessionClosed(session);
    }

    /** Called once by the agent, beside {@link #install}, before any MCP class is transformed. */
    public static void installLangChain4j(LangChain4jHooks installed) {
        langchain4j = installed;
    }

    /**
     * LangChain4j {@code DefaultMcpClient.executeTool(request)}: {@code null} to send the call, else what to return (a
     * denial, or the judged answer of a call the hook sent through {@code call}, the method's own handle).
     */
    public static Object langchain4jCall(Object client, Object request, Object call) {
        return langchain4j().call(client, request, null, call, false);
    }

    /** The same for {@code executeTool(request, invocationContext)} (1.11 on). */
    public static Object langchain4jCallWithContext(Object client, Object request, Object context, Object call) {
        return langchain4j().call(client, request, context, call, true);
    }

    /** LangChain4j {@code readResource(uri)} (SPEC §12): {@code null} to send it, else the judged answer; a denial is thrown. */
    public static Object langchain4jRead(Object client, Object uri, Object call) {
        return langchain4j().ask(client, "resource", uri, null, null, call, false);
    }

    /** The same for {@code readResource(uri, invocationContext)} (1.11 on). */
    public static Object langchain4jReadWithContext(Object client, Object uri, Object context, Object call) {
        return langchain4j().ask(client, "resource", uri, null, context, call, true);
    }

    /** LangChain4j {@code getPrompt(name, arguments)}: as {@link #langchain4jRead}. */
    public static Object langchain4jPrompt(Object client, Object name, Object arguments, Object call) {
        return langchain4j().ask(client, "prompt", name, arguments, null, call, false);
    }

    /** LangChain4j {@code ToolSpecificationHelper.toolSpecificationListFromMcpResponse(tools)}: the specifications, as they are. */
    public static Object langchain4jSpecified(Object specifications, Object toolsJson) {
        return langchain4j().specified(specifications, toolsJson);
    }

    /** LangChain4j {@code listResources}, {@code listResourceTemplates}, {@code listPrompts}: the list without what the policy hides. */
    public static Object langchain4jListed(Object result, Object client) {
        return langchain4j().listed(result, client);
    }

    /** LangChain4j {@code DefaultMcpClient.listTools(...)}: the {@code List<ToolSpecification>} to return. */
    public static Object langchain4jList(Object result, Object client) {
        return langchain4j().list(result, client);
    }

    /** Called once by the agent, beside {@link #install}, before any MCP class is transformed. */
    public static void installModern(ModernHooks installed) {
        modern = installed;
    }

    /**
     * SDK 2.2 modern API, server {@code ToolsFeature.call(ctx, tool, request)}: {@code null} to run the tool,
     * else the {@code Mono<McpAsyncResponse>} to answer with. {@code call} is the hooked method's own handle.
     */
    public static Object modernServerCall(Object feature, Object context, Object tool, Object request, Object call) {
        return modern().serverCall(feature, context, tool, request, call);
    }

    /**
     * Modern server {@code ResourcesFeature.read(ctx, resource, request)} (SPEC §12): {@code null} to read it, else the
     * {@code Mono} to answer with. {@code call} is the hooked method's own handle.
     */
    public static Object modernServerRead(Object feature, Object context, Object resource, Object request, Object call) {
        return modern().serverRead(feature, context, resource, request, call);
    }

    /** Modern server {@code PromptsFeature.get(ctx, prompt, request)}: as {@link #modernServerRead}. */
    public static Object modernServerPrompt(Object feature, Object context, Object prompt, Object request, Object call) {
        return modern().serverPrompt(feature, context, prompt, request, call);
    }

    /** Modern server features' {@code handle(ctx, params)}: the {@code Mono} to answer with (a list filtered). */
    public static Object modernServerList(Object result, Object context) {
        return modern().serverList(result, context);
    }

    /**
     * Modern sync client {@code ToolSpec.call()}/{@code callOnce()}: {@code null} to send the call, else the answer to
     * return (a denial, or the judged answer of a call the hook sent through {@code call}, the method's own handle).
     */
    public static Object modernClientCall(Object spec, Object call) {
        return modern().clientCall(spec, call);
    }

    /** Modern sync client {@code ResourceSpec.read()}/{@code readOnce()}, {@code PromptSpec.get()}/{@code getOnce()}: as {@link #modernClientCall}. */
    public static Object modernClientRequest(Object spec, Object call) {
        return modern().clientRequest(spec, call);
    }

    /** Modern async client resource reads and prompt gets: the {@code Mono} to return, deciding at subscription. */
    public static Object modernClientRequestAsync(Object result, Object spec) {
        return modern().clientRequestAsync(result, spec);
    }

    /** Modern async client {@code ToolSpec.call()}/{@code callOnce()}: the {@code Mono} to return, deciding at subscription. */
    public static Object modernClientCallAsync(Object result, Object spec) {
        return modern().clientCallAsync(result, spec);
    }

    /** Modern client tool lists: the result (or {@code Mono} of one) without hidden and outright-denied tools. */
    public static Object modernClientList(Object result, Object spec) {
        return modern().clientList(result, spec);
    }

    private static ModernHooks modern() {
        ModernHooks current = modern;
        if (current == null) {
            throw new IllegalStateException("mcp-policy agent bridge used before it was installed");
        }
        return current;
    }

    /** Called once by the agent, beside {@link #install}, before any MCP class is transformed. */
    public static void installQuarkus(QuarkusHooks installed) {
        quarkus = installed;
    }

    /**
     * Quarkus MCP server {@code ToolMessageHandler.toolsCall(message, request)}: {@code null} to run the tool, else the
     * Vert.x {@code Future<Void>} to return (of the denial the hook sent, or of a call that waits for the policy or an
     * approval). {@code call} is the hooked method's own handle.
     */
    public static Object quarkusServerCall(Object handler, Object message, Object request, Object call) {
        return quarkus().serverCall(handler, message, request, call);
    }

    /** Quarkus MCP server {@code toolsList}: {@code tools.add(tool)}, made only for a tool the policy lists; returns {@code tools}. */
    public static Object quarkusServerListed(Object tools, Object tool) {
        return quarkus().serverListed(tools, tool);
    }

    /** Quarkus {@code ResourceMessageHandler.resourcesRead(message, request)} (SPEC §12): as {@link #quarkusServerCall}. */
    public static Object quarkusServerRead(Object handler, Object message, Object request, Object call) {
        return quarkus().serverAsk("resource", handler, message, request, call);
    }

    /** Quarkus {@code PromptMessageHandler.promptsGet(message, request)}: as {@link #quarkusServerCall}. */
    public static Object quarkusServerPrompt(Object handler, Object message, Object request, Object call) {
        return quarkus().serverAsk("prompt", handler, message, request, call);
    }

    /** Quarkus {@code resources/list}: {@code resources.add(resource)} when the policy lists its {@code uri}. */
    public static Object quarkusServerResourceListed(Object resources, Object resource) {
        return quarkus().serverListedAs("resource", "uri", resources, resource);
    }

    /** Quarkus {@code resources/templates/list}: each template by its {@code uriTemplate}. */
    public static Object quarkusServerTemplateListed(Object templates, Object template) {
        return quarkus().serverListedAs("resource", "uriTemplate", templates, template);
    }

    /** Quarkus {@code prompts/list}: each prompt by its {@code name}. */
    public static Object quarkusServerPromptListed(Object prompts, Object prompt) {
        return quarkus().serverListedAs("prompt", "name", prompts, prompt);
    }

    /** Quarkus {@code FeatureManagerBase.execute(id, ctx)}: the answer's {@code Future}, judged for the call whose hook ran it (SPEC §13). */
    public static Object quarkusServerAnswer(Object answer, Object manager, Object id) {
        return quarkus().serverAnswer(answer, manager, id);
    }

    /** Called once by the agent, beside {@link #install}, before any MCP class is transformed. */
    public static void installKotlin(KotlinHooks installed) {
        kotlin = installed;
    }

    /**
     * Kotlin MCP SDK server {@code Server.handleCallTool(session, request, continuation)}: {@code null} to run it, else
     * its result (a denial, or {@code COROUTINE_SUSPENDED} for a call that waits and resumes {@code continuation}).
     */
    public static Object kotlinServerCall(Object server, Object session, Object request, Object continuation, Object call) {
        return kotlin().serverCall(server, session, request, continuation, call);
    }

    /** Kotlin server {@code handleReadResource(session, request, continuation)}: as {@link #kotlinServerCall}; a denial is thrown. */
    public static Object kotlinServerRead(Object server, Object session, Object request, Object continuation, Object call) {
        return kotlin().serverAsk("resource", server, session, request, continuation, call);
    }

    /** Kotlin server {@code handleGetPrompt(session, request, continuation)}: as {@link #kotlinServerCall}; a denial is thrown. */
    public static Object kotlinServerPrompt(Object server, Object session, Object request, Object continuation, Object call) {
        return kotlin().serverAsk("prompt", server, session, request, continuation, call);
    }

    /** Kotlin server {@code handleList...()}: the list result (tools, resources, templates or prompts) to answer with. */
    public static Object kotlinServerList(Object result, Object server) {
        return kotlin().serverList(result, server);
    }

    /** Kotlin client {@code callTool(request, options, continuation)}: {@code null} to send it, else its result. */
    public static Object kotlinClientCall(Object client, Object request, Object options, Object continuation, Object call) {
        return kotlin().clientCall(client, request, options, continuation, call);
    }

    /** Kotlin client {@code readResource(request, options, continuation)}: {@code null} to send it; a denial is thrown. */
    public static Object kotlinClientRead(Object client, Object request, Object options, Object continuation, Object call) {
        return kotlin().clientAsk("resource", client, request, options, continuation, call);
    }

    /** Kotlin client {@code getPrompt(request, options, continuation)}: {@code null} to send it; a denial is thrown. */
    public static Object kotlinClientPrompt(Object client, Object request, Object options, Object continuation, Object call) {
        return kotlin().clientAsk("prompt", client, request, options, continuation, call);
    }

    /** Kotlin client {@code list...}: the continuation to go on with (one that filters the list it gets). */
    public static Object kotlinClientListing(Object continuation, Object client) {
        return kotlin().clientListing(continuation, client);
    }

    /** Kotlin client {@code list...}: what it returns (a list it got at once, filtered; {@code COROUTINE_SUSPENDED} as is). */
    public static Object kotlinClientList(Object result, Object continuation, Object client) {
        return kotlin().clientList(result, client);
    }

    private static KotlinHooks kotlin() {
        KotlinHooks current = kotlin;
        if (current == null) {
            throw new IllegalStateException("mcp-policy agent bridge used before it was installed");
        }
        return current;
    }

    private static QuarkusHooks quarkus() {
        QuarkusHooks current = quarkus;
        if (current == null) {
            throw new IllegalStateException("mcp-policy agent bridge used before it was installed");
        }
        return current;
    }

    /**
     * LangChain4j {@code DefaultMcpClient.initialize()}: the future of the initialize answer its transport returned,
     * as the client is to wait on it (one that completes after the agent read the server's name from the answer).
     */
    public static Object langchain4jInitialized(Object future, Object request, Object client) {
        return langchain4j().initialized(future, client);
    }

    private static LangChain4jHooks langchain4j() {
        LangChain4jHooks current = langchain4j;
        if (current == null) {
            throw new IllegalStateException("mcp-policy agent bridge used before it was installed");
        }
        return current;
    }

    private static Hooks hooks() {
        Hooks current = hooks;
        if (current == null) {
            // Unreachable by construction (install() runs before the first transformation); a loud
            // error beats a silent allow.
            throw new IllegalStateException("mcp-policy agent bridge used before it was installed");
        }
        return current;
    }

    /** What the agent plugs into the bridge; see the bridge's methods for the contract. */
    public interface Hooks {
        Object serverCall(Object server, Object exchangeOrContext, Object params, Object handler);

        Object serverList(Object result, Object exchangeOrContext);

        Object clientCall(Object result, Object client, Object request);

        Object clientList(Object result, Object client);

        Object transportContext(Object context, Object request);

        Object emitSerialized(Object sink, Object message);

        Object serverMessage(Object session, Object message);

        Object serverSessionClosed(Object session);

        /** {@code resources/read} or {@code prompts/get} ({@code kind}), as {@link #serverCall}. */
        Object serverAsk(Object server, Object exchangeOrContext, Object params, Object handler, String kind);

        /** A list of resources, resource templates or prompts: {@code items} is its list component, {@code key} each item's name. */
        Object serverListed(Object result, Object exchangeOrContext, String kind, String items, String key);

        Object clientAsk(Object result, Object client, Object request, String kind);

        Object clientListed(Object result, Object client, String kind, String items, String key);
    }

    /** What the agent plugs in for LangChain4j's MCP client; see the {@code langchain4j...} methods. */
    public interface LangChain4jHooks {
        /** @param withContext whether the hooked method is the {@code (request, invocationContext)} overload */
        Object call(Object client, Object request, Object context, Object call, boolean withContext);

        /** @param kindWord {@code resource} ({@code readResource}) or {@code prompt} ({@code getPrompt}) */
        Object ask(Object client, String kindWord, Object name, Object arguments, Object context, Object call, boolean withContext);

        Object listed(Object result, Object client);

        /** @param toolsJson the {@code tools} array of a {@code tools/list} answer (Jackson's {@code ArrayNode}) */
        Object specified(Object specifications, Object toolsJson);

        Object list(Object result, Object client);

        /** @param future the {@code CompletableFuture} of the initialize answer (a Jackson {@code JsonNode}) */
        Object initialized(Object future, Object client);
    }

    /** What the agent plugs in for the SDK 2.2 modern API; see the {@code modern...} methods. */
    public interface ModernHooks {
        Object serverCall(Object feature, Object context, Object tool, Object request, Object call);

        Object serverRead(Object feature, Object context, Object resource, Object request, Object call);

        Object serverPrompt(Object feature, Object context, Object prompt, Object request, Object call);

        Object serverList(Object result, Object context);

        Object clientCall(Object spec, Object call);

        Object clientRequest(Object spec, Object call);

        Object clientCallAsync(Object result, Object spec);

        Object clientRequestAsync(Object result, Object spec);

        Object clientList(Object result, Object spec);
    }

    /** What the agent plugs in for the Quarkus MCP server; see the {@code quarkus...} methods. */
    public interface QuarkusHooks {
        Object serverCall(Object handler, Object message, Object request, Object call);

        Object serverListed(Object tools, Object tool);

        /** @param kindWord {@code resource} or {@code prompt} */
        Object serverAsk(String kindWord, Object handler, Object message, Object request, Object call);

        Object serverListedAs(String kindWord, String key, Object items, Object item);

        Object serverAnswer(Object answer, Object manager, Object id);
    }

    /** What the agent plugs in for the Kotlin MCP SDK; see the {@code kotlin...} methods. */
    public interface KotlinHooks {
        Object serverCall(Object server, Object session, Object request, Object continuation, Object call);

        /** A server {@code resources/read} ({@code kind} "resource") or {@code prompts/get} ("prompt"). */
        Object serverAsk(String kind, Object server, Object session, Object request, Object continuation, Object call);

        Object serverList(Object result, Object server);

        Object clientCall(Object client, Object request, Object options, Object continuation, Object call);

        /** A client {@code readResource} ({@code kind} "resource") or {@code getPrompt} ("prompt"). */
        Object clientAsk(String kind, Object client, Object request, Object options, Object continuation, Object call);

        Object clientListing(Object continuation, Object client);

        Object clientList(Object result, Object client);
    }
}
