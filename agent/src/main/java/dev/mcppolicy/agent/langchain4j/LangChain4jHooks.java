package dev.mcppolicy.agent.langchain4j;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.ServerSections;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.decide.CallDecider;
import dev.mcppolicy.agent.decide.CallDecider.Decided;
import dev.mcppolicy.agent.decide.Judged;
import dev.mcppolicy.agent.decide.Rerun;
import dev.mcppolicy.agent.decide.Sneaky;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.pins.ToolPins;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.pins.ToolDefinitions;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Policy for LangChain4j's own MCP client ({@code DefaultMcpClient}, which does not use the MCP Java SDK),
 * client side, by the same path as the SDK's client: one {@link PolicySnapshot} per call or list, the
 * {@code servers} section of the server's {@code serverInfo.name} (from the initialize result, which 1.18 and later
 * keep, or before 1.18 from the initialize answer, which the agent reads on its way to the client) or of its address,
 * one decision line per call.
 *
 * <p>A denied call is never sent: {@code executeTool} returns at once what LangChain4j hands the model
 * for a failed tool, with the SPEC §5 text: a {@code ToolExecutionResult} with {@code isError} (a plain
 * {@code String} in 1.0, whose {@code executeTool} returns one). That is a result, not an exception, so
 * the conversation goes on whatever tool-error handler the app configured. {@code listTools} leaves out
 * hidden and outright-denied tools, so the model is never offered them.
 *
 * <p>Faults are answered as in the SDK's hooks: an advice error, then {@code on_error} (deny by default;
 * an unfilterable list shows no tool); a denial that cannot be built throws, so the call still does not run.
 */
public final class LangChain4jHooks implements PolicyBridge.LangChain4jHooks {
    private final PolicyHolder holder;
    /** Decides and logs each call; no approval channel here, so a rule asking for approval denies (as before). */
    private final CallDecider decider;
    /** The {@code ToolSpecification}s each client has listed, by name, for {@code "arguments": "input_schema"} rules. */
    private final Map<Object, Map<String, Object>> listedTools = Collections.synchronizedMap(new WeakHashMap<>());
    /** The {@code serverInfo.name} each client's server gave in its initialize answer (LangChain4j before 1.18 keeps none). */
    private final Map<Object, String> answeredNames = Collections.synchronizedMap(new WeakHashMap<>());

    private final ServerSections sections;
    /** SPEC §14: the tool definitions each client's server is held to. */
    private final ToolPins pins = ToolPins.shared();
    /**
     * Each {@code ToolSpecification} a client built from a {@code tools/list}, to the SHA-256 of the definition the
     * server sent for it (read only while a policy pins tools). Keyed as LangChain4j compares specifications (by value),
     * weakly, by the newest list's objects: a list the client dropped drops its entries.
     */
    private final Map<Object, String> definitionHashes = Collections.synchronizedMap(new WeakHashMap<>());

    /** The agent's Jackson, loaded only once a pinning policy reads a LangChain4j tool list (a JVM that never does loads none of it). */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    public LangChain4jHooks(PolicyHolder holder, DecisionLog log) {
        this(holder, log, new ServerSections());
    }

    /** @param sections told of each list a client gets, for {@code servers} sections that match no server */
    public LangChain4jHooks(PolicyHolder holder, DecisionLog log, ServerSections sections) {
        this.holder = holder;
        this.decider = new CallDecider(log, null, false);
        this.sections = sections;
    }

    @Override
    public Object call(Object client, Object request, Object context, Object self, boolean withContext) {
        if (Rerun.isRerun(request)) {
            // the call the hook sends itself below, to judge its answer
            return null;
        }
        if (!withContext && LangChain4jObjects.hasOverload(client, "executeTool", 2)) {
            // this version's executeTool(request) delegates to executeTool(request, context), which decides
            return null;
        }
        ClassLoader loader = loaderOf(client);
        PolicySnapshot policy = holder.current();
        String tool = "?";
        Decision decision = null;
        try {
            tool = LangChain4jObjects.toolName(request);
            Map<String, ?> arguments = LangChain4jObjects.arguments(client, request);
            if (arguments == null) {
                // not a JSON object: the client refuses it itself (ToolArgumentsException), sending nothing
                return null;
            }
            String server = section(policy, client, LangChain4jObjects.serverAddress(client));
            ToolCall call = new ToolCall(Side.CLIENT, server, tool, arguments, session(client),
                    LangChain4jObjects.clientName(client), listedInputSchema(policy, client, server, tool));
            Decision unpinned = pins.refusal(policy, serverName(client), LangChain4jObjects.serverAddress(client), server, tool);
            if (unpinned != null) {
                decision = unpinned;
                decider.record(call, unpinned, loader);
                return LangChain4jObjects.deniedResult(client, unpinned.callerMessage(tool));
            }
            Decided decided = decider.decide(policy, call, loader, () -> false, true);
            decision = decided.decision();
            if (decided.judged() != null) {
                Object answer = send(decided.judged(), self, request, withContext ? new Object[] {client, request, context}
                        : new Object[] {client, request});
                return judge(decided.judged(), answer, client, text -> LangChain4jObjects.deniedResult(client, text));
            }
            return decision.effect() == Effect.ALLOW ? null : LangChain4jObjects.deniedResult(client, decision.callerMessage(tool));
        } catch (Sent sent) {
            throw Sneaky.rethrow(sent.getCause());
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable("executeTool", tool, t);
            }
            Decision error = policy.internalError("LangChain4j executeTool", tool, t);
            if (error.effect() == Effect.ALLOW) {
                return null;
            }
            try {
                return LangChain4jObjects.deniedResult(client, error.callerMessage(tool));
            } catch (Throwable again) {
                throw undeliverable("executeTool", tool, again);
            }
        }
    }

    @Override
    public Object ask(Object client, String kindWord, Object name, Object arguments, Object context, Object self, boolean withContext) {
        Kind kind = Kind.RESOURCE.word().equals(kindWord) ? Kind.RESOURCE : Kind.PROMPT;
        if (Rerun.isRerun(name)) {
            return null;
        }
        String method = kind == Kind.RESOURCE ? "readResource" : "getPrompt";
        if (kind == Kind.RESOURCE && !withContext && LangChain4jObjects.hasOverload(client, method, 2)) {
            // readResource(uri) delegates to readResource(uri, context), which decides
            return null;
        }
        ClassLoader loader = loaderOf(client);
        PolicySnapshot policy = holder.current();
        String what = String.valueOf(name);
        Decision decision = null;
        RuntimeException refused;
        try {
            String server = section(policy, client, LangChain4jObjects.serverAddress(client));
            String clientName = LangChain4jObjects.clientName(client);
            @SuppressWarnings("unchecked")
            ToolCall call = kind == Kind.RESOURCE ? ToolCall.resource(Side.CLIENT, server, what, session(client), clientName)
                    : ToolCall.prompt(Side.CLIENT, server, what, arguments instanceof Map<?, ?> map ? (Map<String, ?>) map : Map.of(),
                            session(client), clientName);
            Decided decided = decider.decide(policy, call, loader, () -> false, true);
            decision = decided.decision();
            if (decided.judged() != null) {
                Object[] all = kind == Kind.PROMPT ? new Object[] {client, name, arguments}
                        : withContext ? new Object[] {client, name, context} : new Object[] {client, name};
                Object answer = send(decided.judged(), self, name, all);
                return judge(decided.judged(), answer, client, text -> {
                    throw LangChain4jObjects.mcpException(client, INVALID_PARAMS, text);
                });
            }
            if (decision.effect() == Effect.ALLOW) {
                return null;
            }
            refused = decision.isHidden() ? (kind == Kind.RESOURCE ? LangChain4jObjects.mcpException(client, RESOURCE_NOT_FOUND, "Resource not found")
                    : LangChain4jObjects.mcpException(client, INVALID_PARAMS, "Invalid prompt name"))
                    : LangChain4jObjects.mcpException(client, INVALID_PARAMS, decision.callerMessage(kind, what));
        } catch (Sent sent) {
            throw Sneaky.rethrow(sent.getCause());
        } catch (Refused denied) {
            throw denied.error;
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable(method, what, t);
            }
            Decision error = policy.internalError("LangChain4j " + method, what, t);
            if (error.effect() == Effect.ALLOW) {
                return null;
            }
            try {
                refused = LangChain4jObjects.mcpException(client, INVALID_PARAMS, error.callerMessage(kind, what));
            } catch (Throwable again) {
                throw undeliverable(method, what, again);
            }
        }
        throw refused;
    }

    /** JSON-RPC's invalid params: a denied read or get, as the SDK's hooks answer it. */
    private static final int INVALID_PARAMS = -32602;
    /** MCP's "Resource not found": a hidden resource. */
    private static final int RESOURCE_NOT_FOUND = -32002;

    /**
     * Sends a decided call through its own method ({@code self}, marked so its hook lets it through), for its answer
     * to be judged; what the call itself throws goes to the caller as it is ({@link Sent}), the call's line logged as decided.
     */
    private static Object send(Judged judged, Object self, Object mark, Object[] arguments) {
        try {
            return Rerun.run(mark, (MethodHandle) self, arguments);
        } catch (Throwable failed) {
            judged.finish();
            throw new Sent(failed);
        }
    }

    /** An answer judged by the call's result rule; {@code denial} builds (or throws, as {@link Refused}) the §5 denial. */
    private Object judge(Judged judged, Object answer, Object client, CallDecider.Denial denial) throws Throwable {
        try {
            return judged.answer(answer, LangChain4jAnswers::read,
                    (value, texts, structured) -> LangChain4jAnswers.rebuild(value, texts, structured, LangChain4jObjects.mapper(client)),
                    text -> {
                        try {
                            return denial.of(text);
                        } catch (RuntimeException error) {
                            throw new Refused(error);
                        }
                    });
        } finally {
            judged.finish();
        }
    }

    /** What a call the hook sent threw: rethrown to the caller as it is. */
    private static final class Sent extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Sent(Throwable cause) {
            super(null, cause, false, false);
        }
    }

    /** A read's or get's denial, thrown to the caller as LangChain4j's own {@code McpException}. */
    private static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final RuntimeException error;

        Refused(RuntimeException error) {
            super(null, error, false, false);
            this.error = error;
        }
    }

    @Override
    public Object listed(Object result, Object client) {
        if (!(result instanceof List<?> items) || items.isEmpty()) {
            return result;
        }
        PolicySnapshot policy = holder.current();
        try {
            String server = section(policy, client, LangChain4jObjects.serverAddress(client));
            List<Object> kept = new ArrayList<>(items.size());
            for (Object item : items) {
                String type = item.getClass().getSimpleName();
                Kind kind = type.equals("McpPrompt") ? Kind.PROMPT : Kind.RESOURCE;
                String key = type.equals("McpResourceTemplate") ? "uriTemplate" : type.equals("McpResource") ? "uri" : "name";
                if (policy.isListed(kind, Side.CLIENT, server, LangChain4jObjects.string(item, key))) {
                    kept.add(item);
                }
            }
            return kept.size() == items.size() ? result : kept;
        } catch (Throwable t) {
            Diagnostics.adviceError("LangChain4j resource or prompt list filter", t);
            return policy.failOpen() ? result : new ArrayList<>();
        }
    }

    @Override
    public Object list(Object result, Object client) {
        if (!(result instanceof List<?> tools)) {
            return result;
        }
        PolicySnapshot policy = holder.current();
        try {
            remember(client, tools);
            String address = LangChain4jObjects.serverAddress(client);
            String name = serverName(client);
            sections.listed(policy, name, address, LangChain4jObjects.key(client));
            String server = section(policy, client, address);
            Set<String> hidden = pinned(policy, tools, name, address, server);
            List<Object> kept = new ArrayList<>(tools.size());
            for (Object tool : tools) {
                String toolName = LangChain4jObjects.specificationName(tool);
                if (!hidden.contains(toolName) && policy.isListed(Side.CLIENT, server, toolName)) {
                    kept.add(tool);
                }
            }
            return kept.size() == tools.size() ? result : kept;
        } catch (Throwable t) {
            Diagnostics.adviceError("LangChain4j listTools filter", t);
            return policy.failOpen() ? result : new ArrayList<>();
        }
    }

    /**
     * The tools the pins hide from a list (SPEC §14), by the definitions the server sent for them ({@link #specified}). A
     * tool whose definition was never read cannot be judged: with {@code on_error=deny} it is hidden too.
     */
    private Set<String> pinned(PolicySnapshot policy, List<?> tools, String name, String address, String section)
            throws ReflectiveOperationException {
        if (!pins.pinsTools(policy)) {
            return Set.of();
        }
        Map<String, String> hashes = new LinkedHashMap<>();
        Set<String> unread = new HashSet<>();
        for (Object tool : tools) {
            String toolName = LangChain4jObjects.specificationName(tool);
            String sha = definitionHashes.get(tool);
            if (sha != null) {
                hashes.put(toolName, sha);
            } else {
                unread.add(toolName);
            }
        }
        Set<String> hidden = new HashSet<>(pins.listed(policy, name, address, section, hashes, false));
        if (!unread.isEmpty()) {
            Diagnostics.adviceError("LangChain4j listTools (pinned definitions)", new IllegalStateException(
                    "no tools/list definition was read for " + unread));
            if (!policy.failOpen()) {
                hidden.addAll(unread);
            }
        }
        return hidden;
    }

    @Override
    public Object specified(Object specifications, Object toolsJson) {
        try {
            if (!(specifications instanceof List<?> specs) || toolsJson == null || !pins.pinsTools(holder.current())) {
                return specifications;
            }
            Map<String, String> byName = new HashMap<>();
            for (Object tool : Json.MAPPER.readValue(toolsJson.toString(), List.class)) {
                if (tool instanceof Map<?, ?> definition && definition.get("name") instanceof String name) {
                    byName.put(name, ToolDefinitions.sha256(name, definition.get("description") instanceof String text ? text : null,
                            asMap(definition.get("inputSchema")), asMap(definition.get("annotations"))));
                }
            }
            for (Object spec : specs) {
                String sha = byName.get(LangChain4jObjects.specificationName(spec));
                if (sha != null) {
                    synchronized (definitionHashes) {
                        // the key kept is this list's object: an equal one of an older list may be collected any time
                        definitionHashes.remove(spec);
                        definitionHashes.put(spec, sha);
                    }
                }
            }
        } catch (Throwable t) {
            // its tools are then hidden by the pins (on_error=deny), as definitions that cannot be read
            Diagnostics.adviceError("LangChain4j tools/list (reading the definitions to pin)", t);
        }
        return specifications;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> asMap(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, ?>) map : null;
    }

    @Override
    public Object initialized(Object future, Object client) {
        if (!(future instanceof CompletableFuture<?> answer)) {
            return future;
        }
        // the client waits on this one, so the name is known before its first list or call
        return answer.thenApply(json -> {
            try {
                String name = LangChain4jObjects.answeredServerName(json);
                if (name != null) {
                    answeredNames.put(client, name);
                }
            } catch (Throwable t) {
                // the server is then known by the client's key, as before 1.18 without the agent's reading
                Diagnostics.adviceError("LangChain4j initialize (reading the server's name)", t);
            }
            return json;
        });
    }

    /**
     * The server's {@code serverInfo.name}: the initialize result the client keeps (1.18 on), else the one the agent
     * read from the initialize answer, else the client's {@code key}.
     */
    private String serverName(Object client) throws ReflectiveOperationException {
        String kept = LangChain4jObjects.keptServerName(client);
        if (kept != null) {
            return kept;
        }
        String answered = answeredNames.get(client);
        return answered != null ? answered : LangChain4jObjects.key(client);
    }

    /**
     * The {@code servers} section a client's calls are judged under: by address, else by the server's name; a section
     * keyed by the client's {@code key}, which the agent used before it read the name on LangChain4j before 1.18,
     * still applies when no section has the name.
     */
    private String section(PolicySnapshot policy, Object client, String address) throws ReflectiveOperationException {
        String section = policy.serverSection(serverName(client), address);
        if (!policy.hasServerSection(section)) {
            String key = LangChain4jObjects.key(client);
            if (key != null && policy.hasServerSection(key)) {
                return key;
            }
        }
        return section;
    }

    private Map<String, ?> listedInputSchema(PolicySnapshot policy, Object client, String server, String tool) throws ReflectiveOperationException {
        if (!policy.needsInputSchema(Side.CLIENT, server, tool)) {
            return null;
        }
        Map<String, Object> tools = listedTools.get(client);
        Object listed = tools == null ? null : tools.get(tool);
        return listed == null ? null : LangChain4jObjects.inputSchema(listed);
    }

    private void remember(Object client, List<?> specifications) {
        try {
            Map<String, Object> tools = listedTools.computeIfAbsent(client, key -> new ConcurrentHashMap<>());
            for (Object specification : specifications) {
                String name = LangChain4jObjects.specificationName(specification);
                if (name != null) {
                    tools.put(name, specification);
                }
            }
        } catch (Throwable t) {
            Diagnostics.adviceError("LangChain4j listTools (remembering input schemas)", t);
        }
    }

    private static IllegalStateException undeliverable(String method, String name, Throwable t) {
        Diagnostics.adviceError("LangChain4j " + method + " (delivering the denial)", name, t);
        return new IllegalStateException("mcp-policy denied " + method + " '" + name + "' and could not deliver the denial", t);
    }

    /** One client object is one session for {@code session} scopes, as for the SDK's clients. */
    private static String session(Object client) {
        return "client-" + Integer.toHexString(System.identityHashCode(client));
    }

    private static ClassLoader loaderOf(Object client) {
        ClassLoader loader = client.getClass().getClassLoader();
        return loader != null ? loader : ClassLoader.getSystemClassLoader();
    }
}
