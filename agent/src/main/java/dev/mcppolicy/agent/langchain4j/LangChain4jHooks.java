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
import java.util.concurrent.ConcurrentHashMap;

/**
 * Policy for LangChain4j's own MCP client ({@code DefaultMcpClient}, which does not use the MCP Java SDK),
 * client side, by the same path as the SDK's client: one {@link PolicySnapshot} per call or list, the
 * {@code servers} section of the server's {@code serverInfo.name} (from the initialize result, which
 * 1.18 and later keep; else the client's {@code key}) or of its address, one decision line per call.
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
            String server = policy.serverSection(LangChain4jObjects.serverName(client), LangChain4jObjects.serverAddress(client));
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
            String name = LangChain4jObjects.serverName(client);
            String address = LangChain4jObjects.serverAddress(client);
            sections.listed(policy, name, address);
            String server = policy.serverSection(name, address);
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
