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
import dev.mcppolicy.agent.decide.CallDecider.Decided;
import dev.mcppolicy.agent.decide.CallDecider;
import dev.mcppolicy.agent.decide.Judged;
import dev.mcppolicy.agent.decide.ListFilter;
import dev.mcppolicy.agent.decide.Rerun;
import dev.mcppolicy.agent.decide.Sneaky;
import dev.mcppolicy.agent.identity.CallerOutcome;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.pins.ToolPins;
import dev.mcppolicy.agent.sdk.Answers;
import dev.mcppolicy.agent.sdk.Identity;
import dev.mcppolicy.agent.sdk.ListedTools;
import dev.mcppolicy.agent.sdk.Results;
import dev.mcppolicy.agent.sdk.ToolLists;
import dev.mcppolicy.engine.Caller;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.lang.invoke.MethodHandle;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;

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
    /** SPEC §14: the tool definitions each client's server is held to. */
    private final ToolPins pins = ToolPins.shared();

    /** @param sections told of each list a client gets, for {@code servers} sections that match no server */
    public ModernHooks(PolicyHolder holder, DecisionLog log, Approvals approvals, boolean showArguments, ServerSections sections) {
        this.holder = holder;
        this.sections = sections;
        this.decider = new CallDecider(log, approvals, showArguments);
        this.approvals = approvals;
    }

    @Override
    public Object serverCall(Object feature, Object context, Object tool, Object request, Object call) {
        return serverAsk(Kind.TOOL, feature, context, tool, request, call);
    }

    @Override
    public Object serverRead(Object feature, Object context, Object resource, Object request, Object call) {
        return serverAsk(Kind.RESOURCE, feature, context, resource, request, call);
    }

    @Override
    public Object serverPrompt(Object feature, Object context, Object prompt, Object request, Object call) {
        return serverAsk(Kind.PROMPT, feature, context, prompt, request, call);
    }

    /** A server {@code tools/call}, {@code resources/read} or {@code prompts/get}: {@code null} to run it, else the {@code Mono} to answer. */
    private Object serverAsk(Kind kind, Object feature, Object context, Object item, Object request, Object call) {
        if (Rerun.isRerun(request)) {
            // the call run by rerun() below, for a call already decided
            return null;
        }
        ClassLoader sdk = loaderOf(context);
        if (holder.isLoaded()) {
            return serverAsk(holder.current(), kind, feature, context, item, request, call, sdk);
        }
        try {
            return Results.monoAfter(sdk, holder.whenLoaded(), policy -> {
                Object answer = serverAsk(policy, kind, feature, context, item, request, call, sdk);
                return answer != null ? answer : rerun((MethodHandle) call, feature, context, item, request);
            });
        } catch (Throwable t) {
            return onServerError(holder.notYetLoaded(), kind, serverWhere(kind) + " (waiting for the policy)", t, sdk, "?");
        }
    }

    private static String serverWhere(Kind kind) {
        return kind == Kind.TOOL ? "modern server tools/call" : kind == Kind.RESOURCE ? "modern server resources/read" : "modern server prompts/get";
    }

    private Object serverAsk(PolicySnapshot policy, Kind kind, Object feature, Object context, Object item, Object request, Object call,
            ClassLoader sdk) {
        String name = "?";
        Decision decision = null;
        try {
            name = kind == Kind.RESOURCE ? ModernObjects.uri(request) : ToolLists.toolName(request);
            Identity.Who who = ModernObjects.who(context);
            Caller verified = CallerOutcome.callerOf(who.caller());
            ToolCall toolCall;
            if (kind == Kind.TOOL) {
                Map<String, ?> inputSchema = policy.needsInputSchema(Side.SERVER, null, name) ? ModernObjects.inputSchema(item) : null;
                toolCall = new ToolCall(Side.SERVER, null, name, ToolLists.arguments(request), null, who.clientId(), inputSchema, Kind.TOOL,
                        verified);
                String state = ModernObjects.requestState(request);
                if (state != null && state.startsWith(APPROVAL_STATE)) {
                    // the client's retry with its user's answer to the agent's own question
                    return answered(toolCall, state.substring(APPROVAL_STATE.length()), feature, context, item, request, call, sdk);
                }
            } else {
                toolCall = (kind == Kind.RESOURCE ? ToolCall.resource(Side.SERVER, null, name, null, who.clientId())
                        : ToolCall.prompt(Side.SERVER, null, name, ToolLists.arguments(request), null, who.clientId())).withCaller(verified);
            }
            ToolCall asked = toolCall;
            Decided decided = decider.decide(policy, toolCall, sdk,
                    () -> kind == Kind.TOOL && approvals != null && ModernObjects.canElicit(context), true);
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
                        () -> judgedAfterApproval(policy, asked, rerun((MethodHandle) call, feature, context, item, request), sdk, true),
                        text -> serverDenied(kind, sdk, text));
            }
            if (decided.judged() != null) {
                return judging(decided.judged(), rerun((MethodHandle) call, feature, context, item, request), kind, sdk, true);
            }
            if (decision.effect() == Effect.ALLOW) {
                return null;
            }
            if (decision.isHidden()) {
                return kind == Kind.TOOL ? ModernObjects.unknownTool(sdk, name)
                        : Results.failedMono(sdk, ModernObjects.notFound(sdk, kind == Kind.RESOURCE, name));
            }
            return serverDenied(kind, sdk, decision.callerMessage(kind, name));
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable(serverWhere(kind), name, t);
            }
            return onServerError(policy, kind, serverWhere(kind), t, sdk, name);
        }
    }

    /** A server denial: a tool's {@code isError} result, a resource's or prompt's JSON-RPC error (-32602), with the §5 text. */
    private static Object serverDenied(Kind kind, ClassLoader sdk, String text) throws ReflectiveOperationException {
        return kind == Kind.TOOL ? ModernObjects.serverDenied(sdk, text) : Results.failedMono(sdk, ModernObjects.invalidParams(sdk, text));
    }

    /**
     * {@code answer} (a {@code Mono} of the server's {@code McpAsyncResponse}, else of the client's result) judged by the
     * call's result rule when it comes (SPEC §13): redacted, or the §5 denial. A streaming response is judged when its
     * body's outcome comes. The call's line is logged then, or, when no answer comes, once the answer ends.
     */
    private static Object judging(Judged judged, Object answer, Kind kind, ClassLoader sdk, boolean server) throws ReflectiveOperationException {
        java.util.concurrent.atomic.AtomicBoolean streams = new java.util.concurrent.atomic.AtomicBoolean();
        Object mapped = Results.monoMap(answer, value -> {
            try {
                if (!server) {
                    return judge(judged, value, kind, sdk);
                }
                if (ModernObjects.isStreaming(value)) {
                    streams.set(true);
                    return ModernObjects.streamingMapped(value, outcome -> judgeUnchecked(judged, outcome, kind, sdk), judged::finish);
                }
                if (!ModernObjects.isResult(value)) {
                    throw new IllegalStateException("an answer of an unknown shape: " + (value == null ? null : value.getClass()));
                }
                Object result = ModernObjects.result(value);
                Object judgedResult = judge(judged, result, kind, sdk);
                return judgedResult == result ? value : ModernObjects.response(sdk, judgedResult);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        });
        return Results.monoFinally(mapped, () -> {
            if (!streams.get()) {
                judged.finish();
            }
        });
    }

    private static Object judgeUnchecked(Judged judged, Object outcome, Kind kind, ClassLoader sdk) {
        try {
            return judge(judged, outcome, kind, sdk);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * One answer judged: a tool's denial is its {@code isError} result, a resource's or prompt's is thrown (a JSON-RPC
     * error). An {@code InputRequiredResult} (the server asking the client something) passes: the retry is a call of its own.
     */
    private static Object judge(Judged judged, Object value, Kind kind, ClassLoader sdk) throws Throwable {
        if (!ModernObjects.isJudgedAnswer(value)) {
            return value;
        }
        return judged.answer(value, Answers::read, Answers::rebuild, text -> {
            if (kind == Kind.TOOL) {
                return ModernObjects.deniedResult(sdk, text);
            }
            throw ModernObjects.invalidParams(sdk, text);
        });
    }

    /** A held call's answer once approved: judged when its rule has a {@code result}. */
    private Object judgedAfterApproval(PolicySnapshot policy, ToolCall call, Object answer, ClassLoader sdk, boolean server)
            throws ReflectiveOperationException {
        Judged judged = decider.judgedAfterApproval(policy, call, sdk);
        return judged == null ? answer : judging(judged, answer, call.kind(), sdk, server);
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
            if (result == null) {
                return null;
            }
            Listed listed = Listed.of(ModernObjects.method(context));
            if (listed == null) {
                return result;
            }
            if (!holder.isLoaded()) {
                return Results.monoAfter(loaderOf(context), holder.whenLoaded(),
                        policy -> Results.monoMap(result, response -> serverFilter(policy, response, listed)));
            }
            PolicySnapshot policy = holder.current();
            return Results.monoMap(result, response -> serverFilter(policy, response, listed));
        } catch (Throwable t) {
            return unfilterable("modern server list", result, t);
        }
    }

    private static Object serverFilter(PolicySnapshot policy, Object response, Listed listed) {
        if (listed.kind == Kind.TOOL) {
            return filter(policy, response, Side.SERVER, null, true);
        }
        return ListFilter.listed(policy, response, listed.kind, Side.SERVER, null, "modern server " + listed.method,
                (answer, keep) -> ModernObjects.filterResponse(answer, keep, (list, kept) -> Answers.filterList(list, listed.items, listed.key, kept)));
    }

    /** A list the hooks filter: its method, the kind of what it lists, the result's list component and each entry's key. */
    private enum Listed {
        TOOLS("tools/list", Kind.TOOL, "tools", "name"),
        RESOURCES("resources/list", Kind.RESOURCE, "resources", "uri"),
        TEMPLATES("resources/templates/list", Kind.RESOURCE, "resourceTemplates", "uriTemplate"),
        PROMPTS("prompts/list", Kind.PROMPT, "prompts", "name");

        final String method;
        final Kind kind;
        final String items;
        final String key;

        Listed(String method, Kind kind, String items, String key) {
            this.method = method;
            this.kind = kind;
            this.items = items;
            this.key = key;
        }

        static Listed of(String method) {
            for (Listed listed : values()) {
                if (listed.method.equals(method)) {
                    return listed;
                }
            }
            return null;
        }

        static Listed ofItems(String items) {
            for (Listed listed : values()) {
                if (listed.items.equals(items)) {
                    return listed;
                }
            }
            return null;
        }
    }

    @Override
    public Object clientCall(Object spec, Object call) {
        return clientSync(Kind.TOOL, spec, call);
    }

    @Override
    public Object clientRequest(Object spec, Object call) {
        return clientSync(ModernObjects.isResourceSpec(spec) ? Kind.RESOURCE : Kind.PROMPT, spec, call);
    }

    /**
     * A sync client call, read or get: {@code null} to send it as it is; else what to return (a denial, or the answer
     * of a call the hook sent through {@code call} and judged). A resource's or prompt's denial is thrown.
     */
    private Object clientSync(Kind kind, Object spec, Object call) {
        if (Rerun.isRerun(spec)) {
            // the request sent by Sync.judged() below, for a call already decided
            return null;
        }
        ClassLoader sdk = loaderOf(spec);
        PolicySnapshot policy = holder.current();
        Object decided;
        try {
            if (!holder.isLoaded()) {
                policy = holder.whenLoaded().get();
            }
            Object requester = ModernObjects.requester(spec);
            if (policy.hasServerSections() && serverNames.get(requester) == null) {
                learnServerName(requester, ModernObjects.discover(requester));
            }
            Object answer = decideClientCall(policy, kind, spec, requester, new Sync(kind, spec, (MethodHandle) call, sdk), sdk);
            decided = ModernObjects.block(answer);
        } catch (Throwable t) {
            return onClientError(policy, kind, t, sdk, spec, false);
        }
        if (decided == SEND) {
            return null;
        }
        if (decided instanceof Thrown thrown) {
            throw Sneaky.rethrow(thrown.error);
        }
        if (decided != null) {
            return decided;
        }
        // an approval given up answers nothing: never send what no one approved
        String text = "Policy denied " + kind.word() + " '" + nameOf(kind, spec) + "': the approval was given up";
        try {
            if (kind == Kind.TOOL) {
                return ModernObjects.deniedResult(sdk, text);
            }
            throw ModernObjects.invalidParams(sdk, text);
        } catch (ReflectiveOperationException e) {
            throw undeliverable("modern client " + kind.word(), nameOf(kind, spec), e);
        }
    }

    /** What a sync call's decision answers when it is to be sent. */
    private static final Object SEND = new Object();

    /** A sync answer that is an exception to throw (a denial, or the judged call's own failure), carried through the decision's {@code Mono}. */
    private record Thrown(Throwable error) {
    }

    /** How a decided client request goes on, as the caller's API answers: a sync value or the async {@code Mono}. */
    private interface Sending {
        /** Allowed: send it as it is. */
        Object send() throws Throwable;

        /** Allowed, its answer judged (SPEC §13). */
        Object judged(Judged judged) throws Throwable;

        /** Answered with {@code answer} (a tool's denial result) instead. */
        Object answer(Object answer) throws Throwable;

        /** Failed with {@code error} (a resource's or prompt's denial) instead. */
        Object failed(RuntimeException error) throws Throwable;
    }

    /** A sync spec: every answer a {@code Mono.just} of what the hook returns ({@link #SEND}, a value, a {@link Thrown}). */
    private static final class Sync implements Sending {
        private final Kind kind;
        private final Object spec;
        private final MethodHandle call;
        private final ClassLoader sdk;

        Sync(Kind kind, Object spec, MethodHandle call, ClassLoader sdk) {
            this.kind = kind;
            this.spec = spec;
            this.call = call;
            this.sdk = sdk;
        }

        @Override
        public Object send() throws Throwable {
            return Results.monoJust(sdk, SEND);
        }

        @Override
        public Object judged(Judged judged) throws Throwable {
            Object answer;
            try {
                answer = Rerun.run(spec, call, spec);
            } catch (Throwable failed) {
                judged.finish();
                return Results.monoJust(sdk, new Thrown(failed));
            }
            try {
                return Results.monoJust(sdk, judge(judged, answer, kind, sdk));
            } catch (RuntimeException refused) {
                if (refused.getClass().getName().equals("io.modelcontextprotocol.modern.McpException")) {
                    return Results.monoJust(sdk, new Thrown(refused));
                }
                throw refused;
            } finally {
                judged.finish();
            }
        }

        @Override
        public Object answer(Object answer) throws Throwable {
            return Results.monoJust(sdk, answer);
        }

        @Override
        public Object failed(RuntimeException error) throws Throwable {
            return Results.monoJust(sdk, new Thrown(error));
        }
    }

    /** An async spec: the {@code Mono} the spec returned, or one in its place. */
    private static final class Async implements Sending {
        private final Kind kind;
        private final Object result;
        private final ClassLoader sdk;

        Async(Kind kind, Object result, ClassLoader sdk) {
            this.kind = kind;
            this.result = result;
            this.sdk = sdk;
        }

        @Override
        public Object send() {
            return result;
        }

        @Override
        public Object judged(Judged judged) throws Throwable {
            return judging(judged, result, kind, sdk, false);
        }

        @Override
        public Object answer(Object answer) throws Throwable {
            return Results.monoJust(sdk, answer);
        }

        @Override
        public Object failed(RuntimeException error) throws Throwable {
            return Results.failedMono(sdk, error);
        }
    }

    @Override
    public Object clientCallAsync(Object result, Object spec) {
        return clientAsync(Kind.TOOL, result, spec);
    }

    @Override
    public Object clientRequestAsync(Object result, Object spec) {
        return clientAsync(ModernObjects.isResourceSpec(spec) ? Kind.RESOURCE : Kind.PROMPT, result, spec);
    }

    private Object clientAsync(Kind kind, Object result, Object spec) {
        ClassLoader sdk = loaderOf(spec);
        try {
            Object requester = ModernObjects.requester(spec);
            Sending sending = new Async(kind, result, sdk);
            return Results.monoDefer(sdk, () -> {
                try {
                    if (!holder.isLoaded()) {
                        return Results.monoAfter(sdk, holder.whenLoaded(), policy -> decideAsync(policy, kind, spec, requester, sending, sdk));
                    }
                    return decideAsync(holder.current(), kind, spec, requester, sending, sdk);
                } catch (Throwable t) {
                    Object answer = onClientError(holder.current(), kind, t, sdk, spec, true);
                    return answer == null ? result : answer;
                }
            });
        } catch (Throwable t) {
            Object answer = onClientError(holder.current(), kind, t, sdk, spec, true);
            return answer == null ? result : answer;
        }
    }

    /** The async call's answer: first asks the server its name when a {@code servers} section may need it. */
    private Object decideAsync(PolicySnapshot policy, Kind kind, Object spec, Object requester, Sending sending, ClassLoader sdk)
            throws Throwable {
        if (policy.hasServerSections() && serverNames.get(requester) == null) {
            return Results.monoAfter(sdk, ModernObjects.toFuture(ModernObjects.discover(requester)), discovered -> {
                learnServerName(requester, discovered);
                return decideClientCall(policy, kind, spec, requester, sending, sdk);
            });
        }
        return decideClientCall(policy, kind, spec, requester, sending, sdk);
    }

    private static String nameOf(Kind kind, Object spec) {
        return kind == Kind.TOOL ? ModernObjects.toolName(spec) : ModernObjects.specName(spec, kind == Kind.RESOURCE);
    }

    /** Decides a client call, read or get; what {@code sending} makes of the decision (a {@code Mono} either way). */
    private Object decideClientCall(PolicySnapshot policy, Kind kind, Object spec, Object requester, Sending sending, ClassLoader sdk) {
        String name = "?";
        Decision decision = null;
        try {
            name = nameOf(kind, spec);
            String serverName = serverNames.get(requester);
            String address = ModernObjects.serverAddress(requester);
            String server = policy.serverSection(serverName, address);
            String session = "client-" + Integer.toHexString(System.identityHashCode(requester));
            String client = ModernObjects.clientName(requester);
            ToolCall call;
            if (kind == Kind.TOOL) {
                call = new ToolCall(Side.CLIENT, server, name, ModernObjects.arguments(spec), session, client,
                        listedTools.inputSchema(policy, requester, server, name));
                Decision unpinned = pins.refusal(policy, serverName, address, server, name);
                if (unpinned != null) {
                    decision = unpinned;
                    decider.record(call, unpinned, sdk);
                    return sending.answer(ModernObjects.deniedResult(sdk, unpinned.callerMessage(name)));
                }
            } else {
                call = kind == Kind.RESOURCE ? ToolCall.resource(Side.CLIENT, server, name, session, client)
                        : ToolCall.prompt(Side.CLIENT, server, name, ModernObjects.arguments(spec), session, client);
            }
            ToolCall asked = call;
            // the agent's own app is the MCP client here: approvals go to the admin channel
            Decided decided = decider.decide(policy, call, sdk, () -> false, true);
            decision = decided.decision();
            if (decided.held() != null) {
                return decider.awaitApproval(decided.held(), sdk, null, () -> {
                    Judged judged = decider.judgedAfterApproval(policy, asked, sdk);
                    return judged == null ? sending.send() : sending.judged(judged);
                }, text -> clientDenied(kind, sending, sdk, text));
            }
            if (decided.judged() != null) {
                return sending.judged(decided.judged());
            }
            if (decision.effect() == Effect.ALLOW) {
                return sending.send();
            }
            if (kind != Kind.TOOL && decision.isHidden()) {
                return sending.failed(ModernObjects.notFound(sdk, kind == Kind.RESOURCE, name));
            }
            return clientDenied(kind, sending, sdk, decision.callerMessage(kind, name));
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable("modern client " + kind.word(), name, t);
            }
            Decision error = policy.internalError("modern client " + kind.word(), name, t);
            try {
                if (error.effect() == Effect.ALLOW) {
                    return sending.send();
                }
                return clientDenied(kind, sending, sdk, error.callerMessage(kind, name));
            } catch (Throwable again) {
                throw undeliverable("modern client " + kind.word(), name, again);
            }
        }
    }

    /** A client denial: a tool's {@code isError} result, a resource's or prompt's {@code McpException} (-32602). */
    private static Object clientDenied(Kind kind, Sending sending, ClassLoader sdk, String text) throws Throwable {
        return kind == Kind.TOOL ? sending.answer(ModernObjects.deniedResult(sdk, text)) : sending.failed(ModernObjects.invalidParams(sdk, text));
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
            return unfilterable("modern client list", result, t);
        }
    }

    private Object clientList(PolicySnapshot policy, Object list, Object requester) {
        Listed listed = Listed.ofItems(ModernObjects.listItems(list));
        if (listed == null) {
            return list;
        }
        learnServerName(requester, list);
        String name = serverNames.get(requester);
        String address = ModernObjects.serverAddress(requester);
        String server = policy.serverSection(name, address);
        if (listed.kind != Kind.TOOL) {
            return ListFilter.listed(policy, list, listed.kind, Side.CLIENT, server, "modern client " + listed.method,
                    (all, keep) -> Answers.filterList(all, listed.items, listed.key, keep));
        }
        listedTools.remember(requester, list, "modern client tools/list");
        sections.listed(policy, name, address, null);
        Predicate<String> pinned = pinned(policy, list, name, address, server);
        if (pinned == null) {
            return filter(policy, list, Side.CLIENT, server, false);
        }
        return ListFilter.listed(policy, list, Side.CLIENT, server, "modern client tools/list",
                (tools, keep) -> ToolLists.filterTools(tools, tool -> pinned.test(tool) && keep.test(tool)));
    }

    /**
     * What the pins let a client's list show (SPEC §14): {@code null} when they hide nothing. A list whose definitions
     * cannot be read is an advice error: with {@code on_error=deny} the pins then show none of its tools.
     */
    private Predicate<String> pinned(PolicySnapshot policy, Object list, String name, String address, String section) {
        if (!pins.pinsTools(policy)) {
            return null;
        }
        try {
            Set<String> hidden = pins.listed(policy, name, address, section, ToolLists.definitionHashes(list), ToolLists.hasNextPage(list));
            return hidden.isEmpty() ? null : tool -> !hidden.contains(tool);
        } catch (Throwable t) {
            Diagnostics.adviceError("modern client tools/list (pinned definitions)", t);
            return policy.failOpen() ? null : tool -> false;
        }
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
    private static Object onServerError(PolicySnapshot policy, Kind kind, String where, Throwable t, ClassLoader sdk, String name) {
        Decision decision = policy.internalError(where, name, t);
        if (decision.effect() == Effect.ALLOW) {
            return null;
        }
        try {
            return serverDenied(kind, sdk, decision.callerMessage(kind, name));
        } catch (Throwable again) {
            throw undeliverable(where, name, again);
        }
    }

    /**
     * An agent fault on the client: denied ({@code Mono} of it when {@code async}), or with {@code on_error=allow} sent.
     * A sync resource's or prompt's denial is thrown.
     */
    private static Object onClientError(PolicySnapshot policy, Kind kind, Throwable t, ClassLoader sdk, Object spec, boolean async) {
        if (t instanceof ExecutionException && t.getCause() != null) {
            t = t.getCause();
        }
        String name = "?";
        try {
            name = nameOf(kind, spec);
        } catch (Throwable ignored) {
            // reported under "?"
        }
        String where = "modern client " + kind.word();
        Decision decision = policy.internalError(where, name, t);
        if (decision.effect() == Effect.ALLOW) {
            return null;
        }
        RuntimeException refused;
        try {
            String text = decision.callerMessage(kind, name);
            if (kind == Kind.TOOL) {
                Object denied = ModernObjects.deniedResult(sdk, text);
                return async ? Results.monoJust(sdk, denied) : denied;
            }
            refused = ModernObjects.invalidParams(sdk, text);
            if (async) {
                return Results.failedMono(sdk, refused);
            }
        } catch (Throwable again) {
            throw undeliverable(where, name, again);
        }
        throw refused;
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
