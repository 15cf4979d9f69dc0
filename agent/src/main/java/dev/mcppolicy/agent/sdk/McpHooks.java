package dev.mcppolicy.agent.sdk;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.canary.Canary;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What the woven hooks do, behind {@link PolicyBridge}: turns an MCP call into a {@link ToolCall},
 * decides it once, logs the decision, and answers with the SDK object the hooked method returns.
 *
 * <p>Denials leave by one route per hook: the server's {@code tools/call} lambda is skipped and
 * returns a {@code Mono} of an {@code isError} result (or, for a hidden tool, the SDK's own
 * unknown-tool error); the client's {@code callTool} returns a deferred {@code Mono} that, when
 * subscribed, either answers the {@code isError} result without sending or subscribes to the real call.
 * Any throwable in here is an advice error: reported, and answered by {@code on_error}.
 */
public final class McpHooks implements PolicyBridge.Hooks {
    private final PolicyHolder policy;
    private final DecisionLog log;
    /**
     * Client side: the tools each client has listed ({@code McpSchema.Tool} by name), for rules that
     * validate arguments against the tool's advertised {@code inputSchema}. Weak keys: a closed client
     * and its tools go away together.
     */
    private final Map<Object, Map<String, Object>> listedTools = Collections.synchronizedMap(new WeakHashMap<>());

    public McpHooks(PolicyHolder policy, DecisionLog log) {
        this.policy = policy;
        this.log = log;
    }

    @Override
    public Object serverCall(Object server, Object exchangeOrContext, Object params) {
        if (params == Canary.PROBE) {
            return Canary.ANSWER;
        }
        ClassLoader sdk = loaderOf(exchangeOrContext, params);
        String tool = "?";
        try {
            tool = SdkAccess.toolName(params);
            Map<String, ?> arguments = SdkAccess.arguments(params);
            Map<String, ?> inputSchema = policy.needsInputSchema(Side.SERVER, null, tool) ? SdkAccess.inputSchema(server, tool) : null;
            ToolCall call = new ToolCall(Side.SERVER, null, tool, arguments,
                    SdkAccess.sessionId(exchangeOrContext), SdkAccess.clientId(exchangeOrContext), inputSchema);
            Decision decision = decide(call, sdk);
            if (!decision.isDenied()) {
                return null;
            }
            return decision.isHidden() ? SdkAccess.unknownToolError(sdk, tool) : SdkAccess.deniedResult(sdk, decision.callerMessage(tool));
        } catch (Throwable t) {
            return onError("server tools/call", t, sdk, tool);
        }
    }

    @Override
    public Object serverList(Object result, Object exchangeOrContext) {
        try {
            return result == null ? null : SdkAccess.monoMap(result, list -> filter(list, Side.SERVER, null));
        } catch (Throwable t) {
            Diagnostics.adviceError("server tools/list", t);
            return result;
        }
    }

    @Override
    public Object clientCall(Object result, Object client, Object request) {
        ClassLoader sdk = loaderOf(client, request);
        try {
            Supplier<Object> decideOnSubscribe = () -> decideClientCall(client, request, result, sdk);
            return SdkAccess.monoDefer(sdk, decideOnSubscribe);
        } catch (Throwable t) {
            Object answer = onError("client callTool", t, sdk, "?");
            return answer == null ? result : answer;
        }
    }

    private Object decideClientCall(Object client, Object request, Object result, ClassLoader sdk) {
        String tool = "?";
        try {
            tool = SdkAccess.toolName(request);
            String server = SdkAccess.serverName(client);
            ToolCall call = new ToolCall(Side.CLIENT, server, tool, SdkAccess.arguments(request),
                    clientSession(client), SdkAccess.clientName(client), listedInputSchema(client, server, tool));
            Decision decision = decide(call, sdk);
            return decision.isDenied() ? SdkAccess.deniedResult(sdk, decision.callerMessage(tool)) : result;
        } catch (Throwable t) {
            Object answer = onError("client callTool", t, sdk, tool);
            return answer == null ? result : answer;
        }
    }

    @Override
    public Object clientList(Object result, Object client) {
        try {
            return result == null ? null : SdkAccess.monoMap(result, list -> {
                remember(client, list);
                return filter(list, Side.CLIENT, SdkAccess.serverName(client));
            });
        } catch (Throwable t) {
            Diagnostics.adviceError("client listTools", t);
            return result;
        }
    }

    @Override
    public Object transportContext(Object context, Object request) {
        try {
            String credential = SdkAccess.header(request, "Authorization");
            if (credential == null || credential.isBlank()) {
                return context;
            }
            return SdkAccess.withPrincipal(context, SdkAccess.principalOf(credential));
        } catch (Throwable t) {
            // the call is still decided; its caller is then known by clientInfo.name only
            Diagnostics.adviceError("HTTP transport context (caller identity)", t);
            return context;
        }
    }

    @Override
    public Object emitSerialized(Object sink, Object message) {
        return SerializedSends.emit(sink, message);
    }

    /**
     * The {@code inputSchema} of a tool this client has listed, when the rule needs it; {@code null}
     * otherwise, and for a tool the client called without listing it first (the rule then denies: its
     * arguments cannot be checked).
     */
    private Map<String, ?> listedInputSchema(Object client, String server, String tool) {
        if (!policy.needsInputSchema(Side.CLIENT, server, tool)) {
            return null;
        }
        Map<String, Object> tools = listedTools.get(client);
        Object listed = tools == null ? null : tools.get(tool);
        return listed == null ? null : SdkAccess.inputSchemaOf(listed);
    }

    private void remember(Object client, Object listToolsResult) {
        try {
            Map<String, Object> tools = listedTools.computeIfAbsent(client, key -> new ConcurrentHashMap<>());
            SdkAccess.forEachTool(listToolsResult, (name, tool) -> {
                if (name != null) {
                    tools.put(name, tool);
                }
            });
        } catch (Throwable t) {
            Diagnostics.adviceError("client listTools (remembering input schemas)", t);
        }
    }

    private Decision decide(ToolCall call, ClassLoader sdk) {
        long start = System.nanoTime();
        Decision decision = policy.decide(call);
        log.record(call, decision, (System.nanoTime() - start) / 1_000, sdk);
        return decision;
    }

    private Object filter(Object listToolsResult, Side side, String server) {
        try {
            return SdkAccess.filterTools(listToolsResult, tool -> policy.isListed(side, server, tool));
        } catch (Throwable t) {
            Diagnostics.adviceError(side.word() + " tools/list filter", t);
            return listToolsResult;
        }
    }

    /** An agent bug while deciding: reported, then denied (or, with on_error=allow, let through). */
    private Object onError(String where, Throwable t, ClassLoader sdk, String tool) {
        Diagnostics.adviceError(where, "tool " + tool, t);
        if (policy.failOpen()) {
            return null;
        }
        try {
            return SdkAccess.deniedResult(sdk, Decision.error("internal error: " + t).callerMessage(tool));
        } catch (Throwable again) {
            Diagnostics.adviceError(where + " (building the denial)", "tool " + tool, again);
            throw new IllegalStateException("mcp-policy could not decide tool call '" + tool + "' and denies it", t);
        }
    }

    /** One client connection is one session for {@code session} scopes on the client side. */
    private static String clientSession(Object client) {
        return "client-" + Integer.toHexString(System.identityHashCode(client));
    }

    private static ClassLoader loaderOf(Object primary, Object secondary) {
        Object source = primary != null ? primary : secondary;
        ClassLoader loader = source == null ? null : source.getClass().getClassLoader();
        return loader != null ? loader : ClassLoader.getSystemClassLoader();
    }
}
