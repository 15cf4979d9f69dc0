package dev.mcppolicy.agent.langchain4j;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.ServerSections;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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
    private final DecisionLog log;
    /** The {@code ToolSpecification}s each client has listed, by name, for {@code "arguments": "input_schema"} rules. */
    private final Map<Object, Map<String, Object>> listedTools = Collections.synchronizedMap(new WeakHashMap<>());
    /** The {@code serverInfo.name} each client's server gave in its initialize answer (LangChain4j before 1.18 keeps none). */
    private final Map<Object, String> answeredNames = Collections.synchronizedMap(new WeakHashMap<>());

    private final ServerSections sections;

    public LangChain4jHooks(PolicyHolder holder, DecisionLog log) {
        this(holder, log, new ServerSections());
    }

    /** @param sections told of each list a client gets, for {@code servers} sections that match no server */
    public LangChain4jHooks(PolicyHolder holder, DecisionLog log, ServerSections sections) {
        this.holder = holder;
        this.log = log;
        this.sections = sections;
    }

    @Override
    public Object call(Object client, Object request, boolean withContext) {
        if (!withContext && LangChain4jObjects.hasContextOverload(client)) {
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
            decision = decide(policy, call, loader);
            return decision.effect() == Effect.ALLOW ? null : LangChain4jObjects.deniedResult(client, decision.callerMessage(tool));
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable(tool, t);
            }
            Decision error = policy.internalError("LangChain4j executeTool", tool, t);
            if (error.effect() == Effect.ALLOW) {
                return null;
            }
            try {
                return LangChain4jObjects.deniedResult(client, error.callerMessage(tool));
            } catch (Throwable again) {
                throw undeliverable(tool, again);
            }
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
            sections.listed(policy, serverName(client), address, LangChain4jObjects.key(client));
            String server = section(policy, client, address);
            List<Object> kept = new ArrayList<>(tools.size());
            for (Object tool : tools) {
                if (policy.isListed(Side.CLIENT, server, LangChain4jObjects.specificationName(tool))) {
                    kept.add(tool);
                }
            }
            return kept.size() == tools.size() ? result : kept;
        } catch (Throwable t) {
            Diagnostics.adviceError("LangChain4j listTools filter", t);
            return policy.failOpen() ? result : new ArrayList<>();
        }
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

    private Decision decide(PolicySnapshot policy, ToolCall call, ClassLoader loader) {
        long start = System.nanoTime();
        Decision decision = policy.decide(call);
        log.record(call, decision, (System.nanoTime() - start) / 1_000, loader);
        return decision;
    }

    private static IllegalStateException undeliverable(String tool, Throwable t) {
        Diagnostics.adviceError("LangChain4j executeTool (delivering the denial)", "tool " + tool, t);
        return new IllegalStateException("mcp-policy denied tool call '" + tool + "' and could not deliver the denial", t);
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
