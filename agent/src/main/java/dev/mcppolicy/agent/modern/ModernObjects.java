package dev.mcppolicy.agent.modern;

import static dev.mcppolicy.agent.sdk.Reflection.asString;
import static dev.mcppolicy.agent.sdk.Reflection.call;
import static dev.mcppolicy.agent.sdk.Reflection.field;

import dev.mcppolicy.agent.decide.ListFilter;
import dev.mcppolicy.agent.sdk.Identity;
import dev.mcppolicy.agent.sdk.Results;
import dev.mcppolicy.agent.sdk.ToolLists;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What the hooks read from the SDK 2.2 modern API's objects and build for it, by member name: a request
 * context's method and caller, a found tool's input schema, a client spec's tool, arguments and requester,
 * the server a client talks to, and the answers a denial takes on each side.
 */
final class ModernObjects {
    private static final String PACKAGE = "io.modelcontextprotocol.modern.";
    private static final String SCHEMA = PACKAGE + "McpSchema";
    /** The {@code _meta} key under which a modern server names itself in every result. */
    static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";
    private static final String MONO = "reactor.core.publisher.Mono";

    private ModernObjects() {
    }

    /** The JSON-RPC method of a server request ({@code McpRequestContext.method()}). */
    static String method(Object context) {
        return asString(call(context, "method"));
    }

    /**
     * Who the caller is, read once per call: for the SPEC §3 {@code client} scope a principal in the request's transport
     * context (the app's extractor's, or the {@code Authorization} header the agent's transport hook hashed), else the
     * {@code clientInfo.name} the request's {@code _meta} declares; and the verified caller the transport hook found
     * there (issue 32). The modern protocol has no session.
     */
    static Identity.Who who(Object context) {
        Identity.Who who = Identity.who(call(context, "transportContext"));
        if (who.clientId() != null) {
            return who;
        }
        Object info = call(context, "clientInfo");
        return new Identity.Who(null, info == null ? null : asString(call(info, "name")), who.caller());
    }

    /** The {@code inputSchema} of the tool the server found ({@code McpAsyncTool.definition()}), as a map. */
    static Map<String, ?> inputSchema(Object asyncTool) {
        Object definition = asyncTool == null ? null : call(asyncTool, "definition");
        return definition == null ? null : ToolLists.inputSchemaOf(definition);
    }

    /** {@code CallToolResult.builder().addContent(TextContent.builder(text).build()).isError(true).build()}. */
    static Object deniedResult(ClassLoader sdk, String text) throws ReflectiveOperationException {
        Class<?> content = Class.forName(SCHEMA + "$Content", false, sdk);
        Object textContent = Class.forName(SCHEMA + "$TextContent", false, sdk).getMethod("builder", String.class).invoke(null, text);
        textContent = textContent.getClass().getMethod("build").invoke(textContent);
        Object builder = Class.forName(SCHEMA + "$CallToolResult", false, sdk).getMethod("builder").invoke(null);
        builder = builder.getClass().getMethod("addContent", content).invoke(builder, textContent);
        builder = builder.getClass().getMethod("isError", boolean.class).invoke(builder, true);
        return builder.getClass().getMethod("build").invoke(builder);
    }

    /** The server's answer to a denied call: {@code Mono.just(McpAsyncResponse.result(denied result))}. */
    static Object serverDenied(ClassLoader sdk, String text) throws ReflectiveOperationException {
        return Results.monoJust(sdk, response(sdk, deniedResult(sdk, text)));
    }

    /** {@code McpException.invalidParams(text)}: how a modern server or client refuses a resource read or prompt get (-32602). */
    static RuntimeException invalidParams(ClassLoader sdk, String text) throws ReflectiveOperationException {
        return (RuntimeException) Class.forName(PACKAGE + "McpException", false, sdk).getMethod("invalidParams", String.class)
                .invoke(null, text);
    }

    /**
     * What a modern server answers for a resource or prompt it does not have: {@code invalidParams("Unknown resource: "
     * + uri, {"uri": uri})} or {@code invalidParams("Unknown prompt: " + name)}, the answer to a hidden one.
     */
    static RuntimeException notFound(ClassLoader sdk, boolean resource, String name) throws ReflectiveOperationException {
        Class<?> exception = Class.forName(PACKAGE + "McpException", false, sdk);
        if (resource) {
            return (RuntimeException) exception.getMethod("invalidParams", String.class, Object.class)
                    .invoke(null, "Unknown resource: " + name, Map.of("uri", String.valueOf(name)));
        }
        return (RuntimeException) exception.getMethod("invalidParams", String.class).invoke(null, "Unknown prompt: " + name);
    }

    /** A server {@code ReadResourceRequest}'s URI. */
    static String uri(Object readResourceRequest) {
        return asString(call(readResourceRequest, "uri"));
    }

    /** Whether a client spec reads a resource ({@code ResourceSpec}) rather than gets a prompt ({@code PromptSpec}). */
    static boolean isResourceSpec(Object spec) {
        return spec.getClass().getName().endsWith("$ResourceSpec");
    }

    /** A {@code ResourceSpec}'s URI or a {@code PromptSpec}'s name. */
    static String specName(Object spec, boolean resource) {
        return asString(field(spec, resource ? "uri" : "name"));
    }

    /** The list a client result is, by its type: {@code tools}, {@code resources}, {@code resourceTemplates}, {@code prompts}, else {@code null}. */
    static String listItems(Object result) {
        String type = result == null ? "" : result.getClass().getName();
        switch (type) {
            case SCHEMA + "$ListToolsResult":
                return "tools";
            case SCHEMA + "$ListResourcesResult":
                return "resources";
            case SCHEMA + "$ListResourceTemplatesResult":
                return "resourceTemplates";
            case SCHEMA + "$ListPromptsResult":
                return "prompts";
            default:
                return null;
        }
    }

    /** Whether {@code value} is one of the answers a result rule judges (not an {@code InputRequiredResult}, which asks the client something). */
    static boolean isJudgedAnswer(Object value) {
        String type = value == null ? "" : value.getClass().getName();
        return type.equals(SCHEMA + "$CallToolResult") || type.equals(SCHEMA + "$ReadResourceResult") || type.equals(SCHEMA + "$GetPromptResult");
    }

    /** What the modern server answers for a tool it does not have: {@code McpException.invalidParams("Unknown tool: " + name)}. */
    static Object unknownTool(ClassLoader sdk, String tool) throws ReflectiveOperationException {
        Object error = Class.forName(PACKAGE + "McpException", false, sdk).getMethod("invalidParams", String.class)
                .invoke(null, "Unknown tool: " + tool);
        return Class.forName(MONO, false, sdk).getMethod("error", Throwable.class).invoke(null, error);
    }

    /**
     * A {@code tools/list} answer ({@code McpAsyncResponse.Result} of a {@code ListToolsResult}) holding only the
     * tools {@code keep} accepts; any other shape throws, so the list fails closed rather than showing everything.
     */
    static Object filterResponse(Object response, Predicate<String> keep) throws Throwable {
        return filterResponse(response, keep, ToolLists::filterTools);
    }

    /** A list answer ({@code McpAsyncResponse.Result}) whose result {@code filtering} filters by {@code keep}; any other shape throws. */
    static Object filterResponse(Object response, Predicate<String> keep, ListFilter.Filtering filtering) throws Throwable {
        Class<?> type = response == null ? null : response.getClass();
        if (type == null || !type.getName().equals(PACKAGE + "server.McpAsyncResponse$Result")) {
            throw new IllegalStateException("a list answer of an unknown shape: " + type);
        }
        Object result = call(response, "result");
        Object filtered = filtering.filter(result, keep);
        return filtered == result ? response : response(type.getClassLoader(), filtered);
    }

    /** Whether a server answer is an {@code McpAsyncResponse.Streaming} (a body that runs with a notifier) rather than a result. */
    static boolean isStreaming(Object response) {
        return response != null && response.getClass().getName().equals(PACKAGE + "server.McpAsyncResponse$Streaming");
    }

    /** Whether a server answer is an {@code McpAsyncResponse.Result}. */
    static boolean isResult(Object response) {
        return response != null && response.getClass().getName().equals(PACKAGE + "server.McpAsyncResponse$Result");
    }

    /**
     * A streaming answer whose body's outcome goes through {@code judge} once the body produces it:
     * {@code McpAsyncResponse.streaming(notifier -> body.run(notifier).map(judge))}, {@code whenDone} run when the body's
     * {@code Mono} ends however it ends.
     */
    static Object streamingMapped(Object streaming, java.util.function.Function<Object, Object> judge, Runnable whenDone)
            throws ReflectiveOperationException {
        ClassLoader sdk = streaming.getClass().getClassLoader();
        Object body = call(streaming, "body");
        Class<?> bodyType = Class.forName(PACKAGE + "server.McpAsyncResponse$Body", false, sdk);
        Object judged = java.lang.reflect.Proxy.newProxyInstance(sdk, new Class<?>[] {bodyType}, (proxy, method, args) -> {
            if (method.getName().equals("run") && args != null && args.length == 1) {
                Object outcome = method.invoke(body, args);
                return Results.monoFinally(Results.monoMap(outcome, judge), whenDone);
            }
            if (method.getName().equals("equals") && args != null && args.length == 1) {
                return proxy == args[0];
            }
            if (method.getName().equals("hashCode")) {
                return System.identityHashCode(proxy);
            }
            return method.invoke(body, args);
        });
        return Class.forName(PACKAGE + "server.McpAsyncResponse", false, sdk).getMethod("streaming", bodyType).invoke(null, judged);
    }

    /** The result an {@code McpAsyncResponse.Result} holds. */
    static Object result(Object response) {
        return call(response, "result");
    }

    /** {@code McpAsyncResponse.result(result)}. */
    static Object response(ClassLoader sdk, Object result) throws ReflectiveOperationException {
        return Class.forName(PACKAGE + "server.McpAsyncResponse", false, sdk).getMethod("result", Object.class).invoke(null, result);
    }

    /**
     * Whether the request's client declared it can ask its user (form elicitation; an empty {@code elicitation} means
     * form too), so a held call may be answered with the protocol's {@code InputRequiredResult}.
     */
    static boolean canElicit(Object context) {
        Object capabilities = call(context, "clientCapabilities");
        Object elicitation = capabilities == null ? null : call(capabilities, "elicitation");
        if (elicitation == null) {
            return false;
        }
        return call(elicitation, "form") != null || call(elicitation, "url") == null;
    }

    static String requestState(Object callToolRequest) {
        return asString(call(callToolRequest, "requestState"));
    }

    /** The retry's answer under {@code key} in its {@code inputResponses} (an {@code ElicitResult} as JSON), or {@code null}. */
    static Object inputResponse(Object callToolRequest, String key) {
        return call(callToolRequest, "inputResponses") instanceof Map<?, ?> responses ? responses.get(key) : null;
    }

    /** The {@code action} of an elicitation answer ({@code accept}, {@code decline}, {@code cancel}), or {@code null}. */
    static String elicitAction(Object response) {
        return response instanceof Map<?, ?> map ? asString(map.get("action")) : null;
    }

    static Map<?, ?> elicitContent(Object response) {
        return response instanceof Map<?, ?> map && map.get("content") instanceof Map<?, ?> content ? content : null;
    }

    /**
     * {@code Mono.just(McpAsyncResponse.result(InputRequiredResult.builder().elicit(key, ElicitFormRequest(message,
     * schema)).requestState(state).build()))}: the protocol's own question for the client's user.
     */
    static Object inputRequired(ClassLoader sdk, String key, String message, Map<String, Object> schema, String state)
            throws ReflectiveOperationException {
        Class<?> form = Class.forName(SCHEMA + "$ElicitFormRequest", false, sdk);
        Object formBuilder = form.getMethod("builder", String.class, Map.class).invoke(null, message, schema);
        Object request = formBuilder.getClass().getMethod("build").invoke(formBuilder);
        Object builder = Class.forName(SCHEMA + "$InputRequiredResult", false, sdk).getMethod("builder").invoke(null);
        builder = builder.getClass().getMethod("elicit", String.class, form).invoke(builder, key, request);
        builder = builder.getClass().getMethod("requestState", String.class).invoke(builder, state);
        Object result = builder.getClass().getMethod("build").invoke(builder);
        return Results.monoJust(sdk, response(sdk, result));
    }

    /** The retried {@code CallToolRequest} as the client would have sent it without the agent's question: no {@code key}, no state. */
    static Object withoutInput(Object callToolRequest, String key) throws ReflectiveOperationException {
        Map<String, Object> responses = null;
        if (call(callToolRequest, "inputResponses") instanceof Map<?, ?> all) {
            responses = new java.util.LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : all.entrySet()) {
                if (!key.equals(entry.getKey())) {
                    responses.put(String.valueOf(entry.getKey()), entry.getValue());
                }
            }
            if (responses.isEmpty()) {
                responses = null;
            }
        }
        Class<?> type = callToolRequest.getClass();
        return type.getConstructor(String.class, Map.class, Map.class, String.class, Map.class).newInstance(call(callToolRequest, "name"),
                call(callToolRequest, "arguments"), responses, null, call(callToolRequest, "meta"));
    }

    /** Whether a client list result is a tool list (the paged {@code ListSpec} serves prompts and resources too). */
    static boolean isToolList(Object result) {
        return result != null && result.getClass().getName().equals(SCHEMA + "$ListToolsResult");
    }

    /** A client spec's requester: one per client, shared by all its specs ({@code SyncClientRequester} / {@code AsyncClientRequester}). */
    static Object requester(Object spec) {
        Object requester = field(spec, "requester");
        if (requester == null) {
            throw new IllegalStateException(spec.getClass().getName() + " has no requester");
        }
        return requester;
    }

    static String toolName(Object toolSpec) {
        return asString(field(toolSpec, "name"));
    }

    @SuppressWarnings("unchecked") // JSON arguments: an object's keys are strings
    static Map<String, ?> arguments(Object toolSpec) {
        return field(toolSpec, "arguments") instanceof Map<?, ?> arguments ? (Map<String, ?>) arguments : Map.of();
    }

    private static Object sender(Object requester) {
        Object requests = field(requester, "requests");
        return requests == null ? null : field(requests, "sender");
    }

    /** The {@code clientInfo.name} a client sends with every request. */
    static String clientName(Object requester) {
        Object sender = sender(requester);
        Object info = sender == null ? null : field(sender, "clientInfo");
        return info == null ? null : asString(call(info, "name"));
    }

    /**
     * How the client reached its server, which the server cannot choose: {@code url:<endpoint>} (the HTTP
     * transport) or {@code stdio:<command> <args>} (the server process the stdio transport started, as the
     * operating system reports its command line); {@code null} for another transport.
     */
    static String serverAddress(Object requester) {
        Object sender = sender(requester);
        Object transport = sender == null ? null : field(sender, "transport");
        if (transport == null) {
            return null;
        }
        if (field(transport, "endpoint") instanceof URI endpoint) {
            return "url:" + endpoint;
        }
        if (field(transport, "process") instanceof Process process) {
            ProcessHandle.Info info = process.info();
            if (info.command().isEmpty()) {
                return null;
            }
            StringBuilder address = new StringBuilder("stdio:").append(info.command().get());
            for (String argument : info.arguments().orElse(new String[0])) {
                address.append(' ').append(argument);
            }
            return address.toString();
        }
        return null;
    }

    /** The {@code serverInfo.name} a modern server put in a result's {@code _meta}, or {@code null}. */
    static String serverName(Object result) {
        Object meta = result == null ? null : call(result, "meta");
        Object info = meta instanceof Map<?, ?> values ? values.get(SERVER_INFO) : null;
        if (info instanceof Map<?, ?> map) {
            return asString(map.get("name"));
        }
        return info == null ? null : asString(call(info, "name"));
    }

    /**
     * {@code requester.call("server/discover", null, Map.of(), requester.settings(), DiscoverResult.class)}: the
     * server's {@code DiscoverResult} (sync requester) or a {@code Mono} of it (async), whose {@code _meta} names it.
     */
    static Object discover(Object requester) throws ReflectiveOperationException {
        Class<?> type = requester.getClass();
        Method settings = type.getDeclaredMethod("settings");
        settings.setAccessible(true);
        Class<?> discoverResult = Class.forName(SCHEMA + "$DiscoverResult", false, type.getClassLoader());
        for (Method method : type.getDeclaredMethods()) {
            Class<?>[] parameters = method.getParameterTypes();
            if (method.getName().equals("call") && parameters.length == 5 && parameters[0] == String.class
                    && parameters[4] == Class.class) {
                method.setAccessible(true);
                return method.invoke(requester, "server/discover", null, Map.of(), settings.invoke(requester), discoverResult);
            }
        }
        throw new IllegalStateException(type.getName() + " has no call(method, name, params, settings, type)");
    }

    /** Whether {@code value} is a Reactor {@code Mono} (the async client's answers). */
    static boolean isMono(Object value) {
        for (Class<?> type = value == null ? null : value.getClass(); type != null; type = type.getSuperclass()) {
            if (type.getName().equals(MONO)) {
                return true;
            }
        }
        return false;
    }

    /** {@code mono.toFuture()}: subscribes now. */
    @SuppressWarnings("unchecked")
    static java.util.concurrent.CompletableFuture<Object> toFuture(Object mono) throws ReflectiveOperationException {
        return (java.util.concurrent.CompletableFuture<Object>) Class.forName(MONO, false, mono.getClass().getClassLoader())
                .getMethod("toFuture").invoke(mono);
    }

    /** {@code mono.block()}. */
    static Object block(Object mono) throws ReflectiveOperationException {
        return Class.forName(MONO, false, mono.getClass().getClassLoader()).getMethod("block").invoke(mono);
    }
}
