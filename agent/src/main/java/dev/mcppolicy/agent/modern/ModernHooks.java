package dev.mcppolicy.agent.modern;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.ServerSections;
import dev.mcppolicy.agent.approval.ApprovalPrompt;
import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.approval.Outcome;
import dev.mcppolicy.agent.approval.PendingCall;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.decide.CallDecider;
import dev.mcppolicy.agent.decide.CallDecider.Decided;
import dev.mcppolicy.agent.decide.ListFilter;
import dev.mcppolicy.agent.decide.Rerun;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.sdk.ListedTools;
import dev.mcppolicy.agent.sdk.Results;
import dev.mcppolicy.agent.sdk.ToolLists;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.lang.invoke.MethodHandle;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ExecutionException;

/**
 * Policy for the MCP Java SDK 2.2 modern API ({@code io.modelcontextprotocol.modern}, protocol 2026-07-28), by the
 * same decision path as the classic API's hooks ({@link CallDecider}): one {@link PolicySnapshot} per call or list,
 * one decision line per call.
 *
 * <p>Server: {@code ToolsFeature.call(ctx, tool, request)} runs for a tool the server has; a denial skips it and
 * answers an {@code isError} {@code CallToolResult} with the SPEC §5 text, a hidden tool the SDK's own
 * "Unknown tool" error. The protocol is stateless, so there is no session: {@code session} limits count per
 * JVM, and the caller is the transport context's principal or the request's {@code clientInfo.name}. A call that
 * arrives while the policy is read, or that is held for approval, waits in a {@code Mono}, holding no thread.
 *
 * <p>Client: the sync {@code ToolSpec.call()}/{@code callOnce()} decide before anything is sent and return the
 * denial (the sync caller blocks anyway, so waiting for the policy or an approval blocks it too); the async ones
 * return a {@code Mono} that decides when subscribed. A {@code servers} section applies by the
 * {@code serverInfo.name} the server puts in every result's {@code _meta} (remembered per client from its tool
 * lists), or, before the client has heard from its server, by the server's own {@code server/discover} answer,
 * asked once per client and only when the policy has a {@code servers} section. The arguments are never
 * rewritten (the SDK mirrors some into {@code Mcp-Param-*} headers once the request is built).
 */
public final class ModernHooks implements PolicyBridge.ModernHooks {
    private final PolicyHolder holder;
    private final CallDecider decider;
    private final Approvals approvals;
    /** Client side, per requester (one per client): its tools, for {@code "arguments": "input_schema"} rules. */
    private final ListedTools listedTools = new ListedTools();
    /** Client side, per requester: the {@code serverInfo.name} its server gave. */
    private final Map<Object, String> serverNames = Collections.synchronizedMap(new WeakHashMap<>());

    private final ServerSections sections;

    /** @param sections told of each list a client gets, for {@code servers} sections that match no server */
    public ModernHooks(PolicyHolder holder, DecisionLog log, Approvals approvals, boolean showArguments, ServerSections sections) {
        this.holder = holder;
        this.sections = sections;
        this.decider = new CallDecider(log, approvals, showArguments);
        this.approvals = approvals;
    }

    @Override
    public Object serverCall(Object feature, Object context, Object tool, Object request, Object call) {
        if (Rerun.isRerun(request)) {
            // the call run by rerun() below, for a call already decided
            return null;
        }
        ClassLoader sdk = loaderOf(context);
        if (holder.isLoaded()) {
            return serverCall(holder.current(), feature, context, tool, request, call, sdk);
        }
        try {
            return Results.monoAfter(sdk, holder.whenLoaded(), policy -> {
                Object answer = serverCall(policy, feature, context, tool, request, call, sdk);
                return answer != null ? answer : rerun((MethodHandle) call, feature, context, tool, request);
            });
        } catch (Throwable t) {
            return onServerError(holder.notYetLoaded(), "modern server tools/call (waiting for the policy)", t, sdk, "?");
        }
    }

    private Object serverCall(PolicySnapshot policy, Object feature, Object context, Object tool, Object request, Object call,
            ClassLoader sdk) {
        String name = "?";
        Decision decision = null;
        try {
            name = ToolLists.toolName(request);
            Map<String, ?> inputSchema = policy.needsInputSchema(Side.SERVER, null, name) ? ModernObjects.inputSchema(tool) : null;
            ToolCall toolCall = new ToolCall(Side.SERVER, null, name, ToolLists.arguments(request), null,
                    ModernObjects.callerId(context), inputSchema);
            String state = ModernObjects.requestState(request);
            if (state != null && state.startsWith(APPROVAL_STATE)) {
                // the client's retry with its user's answer to the agent's own question
                return answered(toolCall, state.substring(APPROVAL_STATE.length()), feature, context, tool, request, call, sdk);
            }
            Decided decided = decider.decide(policy, toolCall, sdk, () -> approvals != null && ModernObjects.canElicit(context));
            decision = decided.decision();
            PendingCall held = decided.held();
            if (held != null && Approvals.ELICITATION.equals(held.via())) {
                // the protocol's own question: the client asks its user, then sends the call again with the answer
                decider.recordWhenGivenUp(held, sdk);
                return ModernObjects.inputRequired(sdk, APPROVAL_KEY, ApprovalPrompt.message(held), ApprovalPrompt.requestedSchema(),
                        APPROVAL_STATE + held.id());
            }
            if (held != null) {
                return decider.awaitApproval(held, sdk, null,
                        () -> rerun((MethodHandle) call, feature, context, tool, request), text -> ModernObjects.serverDenied(sdk, text));
            }
            if (decision.effect() == Effect.ALLOW) {
                return null;
            }
            return decision.isHidden() ? ModernObjects.unknownTool(sdk, name) : ModernObjects.serverDenied(sdk, decision.callerMessage(name));
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable("modern server tools/call", name, t);
            }
            return onServerError(policy, "modern server tools/call", t, sdk, name);
        }
    }

    /** The key of the agent's question in an {@code InputRequiredResult}, and of its answer in the retry's {@code inputResponses}. */
    static final String APPROVAL_KEY = "mcp-policy/approval";
    /** What the agent's {@code requestState} starts with (the SDK seals it before the client sees it); the approval id follows. */
    static final String APPROVAL_STATE = "mcp-policy/approval:";

    /**
     * A retry that answers the agent's approval question: the held call of {@code id}, if the retry is that same call
     * (tool and arguments), approved or denied by the answer in its {@code inputResponses}; approved, the tool runs
     * with the request the client would have sent without the question (no agent key, no agent state). A retry for an
     * id no longer held (decided, timed out) or for another call is denied.
     */
    private Object answered(ToolCall retried, String id, Object feature, Object context, Object tool, Object request, Object call,
            ClassLoader sdk) throws Throwable {
        PendingCall held = approvals == null ? null : approvals.get(id);
        if (held == null || !held.call().tool().equals(retried.tool()) || !held.call().arguments().equals(retried.arguments())) {
            String why = held == null ? "the approval " + id + " is no longer held (decided, or timed out)"
                    : "the call sent with approval " + id + " is not the call that was held";
            Decision refused = new Decision(Effect.DENY, Effect.DENY, held == null ? "(approval)" : held.held().rule(), why, 0);
            decider.record(retried, refused, sdk);
            return ModernObjects.serverDenied(sdk, refused.callerMessage(retried.tool()));
        }
        Object response = ModernObjects.inputResponse(request, APPROVAL_KEY);
        ApprovalPrompt.Answer answer = ApprovalPrompt.answer(ModernObjects.elicitAction(response), ModernObjects.elicitContent(response));
        String approver = retried.clientId() == null ? Approvals.ELICITATION : retried.clientId();
        if (answer.approved()) {
            approvals.approve(id, approver, answer.reason(), Approvals.ELICITATION);
        } else {
            approvals.deny(id, approver, answer.reason(), Approvals.ELICITATION);
        }
        Outcome outcome = held.outcome().getNow(null);
        if (outcome == null) {
            throw new IllegalStateException("approval " + id + " has no outcome after its answer");
        }
        return decider.answer(held, outcome, sdk,
                () -> rerun((MethodHandle) call, feature, context, tool, ModernObjects.withoutInput(request, APPROVAL_KEY)),
                text -> ModernObjects.serverDenied(sdk, text),
                () -> ModernObjects.serverDenied(sdk, "Policy denied tool '" + retried.tool() + "': the approval was given up"));
    }

    /** Runs the hooked {@code ToolsFeature.call} of a call decided later; the hook it re-enters lets it through once. */
    private static Object rerun(MethodHandle call, Object feature, Object context, Object tool, Object request) throws Throwable {
        return Rerun.run(request, call, feature, context, tool, request);
    }

    @Override
    public Object serverList(Object result, Object context) {
        try {
            if (result == null || !"tools/list".equals(ModernObjects.method(context))) {
                return result;
            }
            if (!holder.isLoaded()) {
                return Results.monoAfter(loaderOf(context), holder.whenLoaded(),
                        policy -> Results.monoMap(result, response -> filter(policy, response, Side.SERVER, null, true)));
            }
            PolicySnapshot policy = holder.current();
            return Results.monoMap(result, response -> filter(policy, response, Side.SERVER, null, true));
        } catch (Throwable t) {
            return unfilterable("modern server tools/list", result, t);
        }
    }

    @Override
    public Object clientCall(Object spec) {
        ClassLoader sdk = loaderOf(spec);
        PolicySnapshot policy = holder.current();
        try {
            if (!holder.isLoaded()) {
                policy = holder.whenLoaded().get();
            }
            Object requester = ModernObjects.requester(spec);
            if (policy.hasServerSections() && serverNames.get(requester) == null) {
                learnServerName(requester, ModernObjects.discover(requester));
            }
            Object answer = decideClientCall(policy, spec, requester, Results.monoJust(sdk, SEND), sdk);
            Object decided = ModernObjects.block(answer);
            if (decided == SEND) {
                return null;
            }
            // an approval given up answers nothing: never send what no one approved
            return decided != null ? decided : ModernObjects.deniedResult(sdk, "Policy denied tool '" + ModernObjects.toolName(spec)
                    + "': the approval was given up");
        } catch (Throwable t) {
            return onClientError(policy, t, sdk, spec, false);
        }
    }

    /** What a sync call's decision answers when it is to be sent. */
    private static final Object SEND = new Object();

    @Override
    public Object clientCallAsync(Object result, Object spec) {
        ClassLoader sdk = loaderOf(spec);
        try {
            Object requester = ModernObjects.requester(spec);
            return Results.monoDefer(sdk, () -> {
                try {
                    if (!holder.isLoaded()) {
                        return Results.monoAfter(sdk, holder.whenLoaded(), policy -> decideAsync(policy, spec, requester, result, sdk));
                    }
                    return decideAsync(holder.current(), spec, requester, result, sdk);
                } catch (Throwable t) {
                    Object answer = onClientError(holder.current(), t, sdk, spec, true);
                    return answer == null ? result : answer;
                }
            });
        } catch (Throwable t) {
            Object answer = onClientError(holder.current(), t, sdk, spec, true);
            return answer == null ? result : answer;
        }
    }

    /** The async call's answer: first asks the server its name when a {@code servers} section may need it. */
    private Object decideAsync(PolicySnapshot policy, Object spec, Object requester, Object result, ClassLoader sdk) throws Throwable {
        if (policy.hasServerSections() && serverNames.get(requester) == null) {
            return Results.monoAfter(sdk, ModernObjects.toFuture(ModernObjects.discover(requester)), discovered -> {
                learnServerName(requester, discovered);
                return decideClientCall(policy, spec, requester, result, sdk);
            });
        }
        return decideClientCall(policy, spec, requester, result, sdk);
    }

    /** Decides a client call: {@code send} (the {@code Mono} that sends it) or the {@code Mono} of its denial or its approval. */
    private Object decideClientCall(PolicySnapshot policy, Object spec, Object requester, Object send, ClassLoader sdk) {
        String tool = "?";
        Decision decision = null;
        try {
            tool = ModernObjects.toolName(spec);
            String server = policy.serverSection(serverNames.get(requester), ModernObjects.serverAddress(requester));
            ToolCall call = new ToolCall(Side.CLIENT, server, tool, ModernObjects.arguments(spec), "client-"
                    + Integer.toHexString(System.identityHashCode(requester)), ModernObjects.clientName(requester),
                    listedTools.inputSchema(policy, requester, server, tool));
            // the agent's own app is the MCP client here: approvals go to the admin channel
            Decided decided = decider.decide(policy, call, sdk, () -> false);
            decision = decided.decision();
            if (decided.held() != null) {
                return decider.awaitApproval(decided.held(), sdk, null, () -> send,
                        text -> Results.monoJust(sdk, ModernObjects.deniedResult(sdk, text)));
            }
            return decision.effect() == Effect.ALLOW ? send : Results.monoJust(sdk, ModernObjects.deniedResult(sdk, decision.callerMessage(tool)));
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable("modern client tool call", tool, t);
            }
            Decision error = policy.internalError("modern client tool call", tool, t);
            if (error.effect() == Effect.ALLOW) {
                return send;
            }
            try {
                return Results.monoJust(sdk, ModernObjects.deniedResult(sdk, error.callerMessage(tool)));
            } catch (Throwable again) {
                throw undeliverable("modern client tool call", tool, again);
            }
        }
    }

    @Override
    public Object clientList(Object result, Object spec) {
        try {
            if (result == null) {
                return null;
            }
            Object requester = ModernObjects.requester(spec);
            if (ModernObjects.isMono(result)) {
                if (!holder.isLoaded()) {
                    return Results.monoAfter(loaderOf(spec), holder.whenLoaded(),
                            policy -> Results.monoMap(result, list -> clientList(policy, list, requester)));
                }
                PolicySnapshot policy = holder.current();
                return Results.monoMap(result, list -> clientList(policy, list, requester));
            }
            return clientList(holder.isLoaded() ? holder.current() : holder.whenLoaded().get(), result, requester);
        } catch (Throwable t) {
            return unfilterable("modern client tools/list", result, t);
        }
    }

    private Object clientList(PolicySnapshot policy, Object list, Object requester) {
        if (!ModernObjects.isToolList(list)) {
            return list;
        }
        learnServerName(requester, list);
        listedTools.remember(requester, list, "modern client tools/list");
        String name = serverNames.get(requester);
        String address = ModernObjects.serverAddress(requester);
        sections.listed(policy, name, address, null);
        String server = policy.serverSection(name, address);
        return filter(policy, list, Side.CLIENT, server, false);
    }

    private void learnServerName(Object requester, Object result) {
        String name = ModernObjects.serverName(result);
        if (name != null) {
            serverNames.put(requester, name);
        }
    }

    /**
     * A list without hidden and outright-denied tools ({@code response}: the server's {@code McpAsyncResponse},
     * else the client's {@code ListToolsResult}), failing closed ({@link ListFilter}).
     */
    private static Object filter(PolicySnapshot policy, Object list, Side side, String server, boolean response) {
        return ListFilter.listed(policy, list, side, server, "modern " + side.word() + " tools/list",
                response ? ModernObjects::filterResponse : ToolLists::filterTools);
    }

    /** A list that could not even be wrapped: with {@code on_error=deny} the list fails. */
    private Object unfilterable(String where, Object result, Throwable t) {
        Diagnostics.adviceError(where, t);
        if (result == null || holder.failOpen()) {
            return result;
        }
        IllegalStateException failure = new IllegalStateException("mcp-policy could not filter " + where + " and shows no tool (on_error=deny)", t);
        if (ModernObjects.isMono(result)) {
            try {
                return Results.monoError(result, failure);
            } catch (Throwable again) {
                Diagnostics.adviceError(where + " (failing the list)", again);
            }
        }
        throw failure;
    }

    /** An agent fault on the server: reported with an id, then denied (or, with {@code on_error=allow}, run). */
    private static Object onServerError(PolicySnapshot policy, String where, Throwable t, ClassLoader sdk, String tool) {
        Decision decision = policy.internalError(where, tool, t);
        if (decision.effect() == Effect.ALLOW) {
            return null;
        }
        try {
            return ModernObjects.serverDenied(sdk, decision.callerMessage(tool));
        } catch (Throwable again) {
            throw undeliverable(where, tool, again);
        }
    }

    /** An agent fault on the client: denied ({@code Mono} of it when {@code async}), or with {@code on_error=allow} sent. */
    private static Object onClientError(PolicySnapshot policy, Throwable t, ClassLoader sdk, Object spec, boolean async) {
        if (t instanceof ExecutionException && t.getCause() != null) {
            t = t.getCause();
        }
        String tool = "?";
        try {
            tool = ModernObjects.toolName(spec);
        } catch (Throwable ignored) {
            // reported under "?"
        }
        Decision decision = policy.internalError("modern client tool call", tool, t);
        if (decision.effect() == Effect.ALLOW) {
            return null;
        }
        try {
            Object denied = ModernObjects.deniedResult(sdk, decision.callerMessage(tool));
            return async ? Results.monoJust(sdk, denied) : denied;
        } catch (Throwable again) {
            throw undeliverable("modern client tool call", tool, again);
        }
    }

    private static IllegalStateException undeliverable(String where, String tool, Throwable t) {
        Diagnostics.adviceError(where + " (delivering the denial)", "tool " + tool, t);
        return new IllegalStateException("mcp-policy denied tool call '" + tool + "' and could not deliver the denial", t);
    }

    private static ClassLoader loaderOf(Object source) {
        ClassLoader loader = source == null ? null : source.getClass().getClassLoader();
        return loader != null ? loader : ClassLoader.getSystemClassLoader();
    }
}
