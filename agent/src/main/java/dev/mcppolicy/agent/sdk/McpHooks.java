package dev.mcppolicy.agent.sdk;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.ServerSections;
import dev.mcppolicy.agent.TestHooks;
import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.approval.PendingCall;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.canary.Canary;
import dev.mcppolicy.agent.decide.CallDecider;
import dev.mcppolicy.agent.decide.Judged;
import dev.mcppolicy.agent.decide.ListFilter;
import dev.mcppolicy.agent.decide.Rerun;
import dev.mcppolicy.agent.decide.CallDecider.Decided;
import dev.mcppolicy.agent.identity.AppPrincipal;
import dev.mcppolicy.agent.identity.CallerOutcome;
import dev.mcppolicy.agent.identity.DeferredCaller;
import dev.mcppolicy.agent.sdk.Identity.Who;
import dev.mcppolicy.agent.identity.JwtIdentity;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.pins.ToolPins;
import dev.mcppolicy.engine.Caller;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.lang.invoke.MethodHandle;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What the woven hooks do, behind {@link PolicyBridge}: turns an MCP call into a {@link ToolCall},
 * decides it once, logs the decision, and answers with the SDK object the hooked method returns.
 *
 * <p>Denials leave by one route per hook: the server's {@code tools/call} lambda is skipped and
 * returns a {@code Mono} of an {@code isError} result (or, for a hidden tool, the SDK's own
 * unknown-tool error); the client's {@code callTool} returns a deferred {@code Mono} that, when
 * subscribed, either answers the {@code isError} result without sending or subscribes to the real call.
 * A call runs only on an explicit {@code ALLOW}.
 *
 * <p>A call or list that arrives while the policy is still being read is answered with a {@code Mono}
 * that goes on once it is read: nothing holds the SDK's thread meanwhile. A server call allowed then
 * runs its handler through the handler lambda's own method handle.
 *
 * <p>Each call and each {@code tools/list} takes one {@link PolicySnapshot} and asks it everything, so
 * a reload in between cannot judge one call (its input-schema question and its decision) or one list
 * (its tools) by two policies.
 *
 * <p>Any throwable in here is an advice error: reported with an id, and answered by {@code on_error}.
 * With {@code on_error=deny} (the default) an unanswerable call is denied and a list that cannot be
 * filtered shows no tool (an empty list, or failing that a {@code tools/list} error); with
 * {@code on_error=allow} the call runs and the list is shown unfiltered. A call the policy denied is
 * never run because delivering its denial failed, whatever {@code on_error} says: then the hook throws
 * into the SDK, which answers the caller with an error.
 */
public final class McpHooks implements PolicyBridge.Hooks {
    private final PolicyHolder holder;
    private final Approvals approvals;
    private final ServerSections sections;
    /** The decision path the stacks share: decide and log, hold for approval, answer a held call. */
    private final CallDecider decider;
    /** Asks a held server call's own client when its rule says {@code approval.via: elicitation}. */
    private final ElicitationChannel elicitation;
    /** Server side: the request and session of each held call, for cancels and closes the SDK does not act on. */
    private final HeldRequests heldRequests;
    /** Client side: the tools each client has listed, for {@code "arguments": "input_schema"} rules. */
    private final ListedTools listedTools = new ListedTools();
    /** Client side: pinned tool definitions (SPEC §14). */
    private final ToolPins pins = ToolPins.shared();
    /**
     * The params of the call whose handler {@link #runHandler} is running on this thread; read only while
     * {@link #RERUNNING} is non-zero, so a call on the usual path pays one volatile read for it.
     */
    private static final ThreadLocal<Object> RERUN = new ThreadLocal<>();
    /** How often a held server call with a progress token tells its client it is still waiting. */
    static final long PROGRESS_SECONDS = 10;
    private static final AtomicInteger RERUNNING = new AtomicInteger();

    public McpHooks(PolicyHolder holder, DecisionLog log) {
        this(holder, log, null, false, new ServerSections());
    }

    /**
     * @param approvals where calls that need approval are held, or {@code null}: no approval channel is
     *     configured, and such calls are denied
     * @param showArguments whether approvers see argument values ({@code log_arguments})
     */
    public McpHooks(PolicyHolder holder, DecisionLog log, Approvals approvals, boolean showArguments) {
        this(holder, log, approvals, showArguments, new ServerSections());
    }

    /** @param sections told of each list a client gets, for {@code servers} sections that match no server */
    public McpHooks(PolicyHolder holder, DecisionLog log, Approvals approvals, boolean showArguments, ServerSections sections) {
        this.holder = holder;
        this.sections = sections;
        this.approvals = approvals;
        this.decider = new CallDecider(log, approvals, showArguments);
        this.elicitation = approvals == null ? null : new ElicitationChannel(approvals);
        this.heldRequests = approvals == null ? null : new HeldRequests(approvals);
    }

    @Override
    public Object serverCall(Object server, Object exchangeOrContext, Object params, Object handler) {
        if (params == Canary.PROBE) {
            return Canary.ANSWER;
        }
        if (RERUNNING.get() > 0 && RERUN.get() == params) {
            // the handler run by runHandler() below, for a call already decided
            RERUN.remove();
            return null;
        }
        ClassLoader sdk = loaderOf(exchangeOrContext, params);
        if (holder.isLoaded()) {
            return serverCallBy(holder.current(), server, exchangeOrContext, params, sdk, handler);
        }
        try {
            // still reading the policy: answer with a Mono that decides once it is read, and never hold the
            // SDK's inbound (stdio reader, event-loop) thread meanwhile
            return Results.monoAfter(sdk, holder.whenLoaded(), policy -> {
                Object answer = serverCallBy(policy, server, exchangeOrContext, params, sdk, handler);
                return answer != null ? answer : runHandler((MethodHandle) handler, server, exchangeOrContext, params);
            });
        } catch (Throwable t) {
            return onError(holder.notYetLoaded(), "server tools/call (waiting for the policy)", t, sdk, "?");
        }
    }

    /**
     * Decides a server call by {@code policy} once its caller is known: at once, or, when the app's principal answers
     * only inside the request's Reactor chain (WebFlux, {@link DeferredCaller}), as part of the answer's {@code Mono}.
     */
    private Object serverCallBy(PolicySnapshot policy, Object server, Object exchangeOrContext, Object params, ClassLoader sdk,
            Object handler) {
        Who who;
        try {
            who = Identity.who(exchangeOrContext);
        } catch (Throwable t) {
            return onError(policy, "server tools/call (who is calling)", t, sdk, "?");
        }
        if (!(who.caller() instanceof DeferredCaller deferred)) {
            return serverCall(policy, server, exchangeOrContext, params, sdk, handler, who);
        }
        try {
            return Results.monoAfterAnswer(deferred.principal(), DeferredCaller.UNREADABLE, principal -> {
                Object answer = serverCall(policy, server, exchangeOrContext, params, sdk, handler, who.withCaller(deferred.resolve(principal)));
                return answer != null ? answer : runHandler((MethodHandle) handler, server, exchangeOrContext, params);
            });
        } catch (Throwable t) {
            return onError(policy, "server tools/call (the app's principal)", t, sdk, "?");
        }
    }

    /** Decides a server call by {@code policy}: {@code null} to run the handler, else the answer. */
    private Object serverCall(PolicySnapshot policy, Object server, Object exchangeOrContext, Object params, ClassLoader sdk,
            Object handler, Who who) {
        String tool = "?";
        Decision decision = null;
        try {
            tool = ToolLists.toolName(params);
            Map<String, ?> arguments = ToolLists.arguments(params);
            Map<String, ?> inputSchema = policy.needsInputSchema(Side.SERVER, null, tool) ? ToolLists.inputSchema(server, tool) : null;
            if (TestHooks.SWAPS_MID_CALL) {
                TestHooks.midCall(holder);
            }
            ToolCall call = new ToolCall(Side.SERVER, null, tool, arguments,
                    who.sessionId(), who.clientId(), inputSchema, Kind.TOOL, CallerOutcome.callerOf(who.caller()));
            Decided decided = decider.decide(policy, call, sdk, () -> elicitation.canAsk(exchangeOrContext, call.sessionId()), true);
            decision = decided.decision();
            if (decided.held() != null) {
                PendingCall held = decided.held();
                heldRequests.bind(params, held);
                keepWaiting(held, exchangeOrContext, params);
                Runnable askClient = Approvals.ELICITATION.equals(held.via()) ? () -> elicitation.ask(held, exchangeOrContext) : null;
                return decider.awaitApproval(held, sdk, askClient,
                        () -> judgedAfterApproval(policy, call, runHandler((MethodHandle) handler, server, exchangeOrContext, params), sdk),
                        text -> Results.deniedResult(sdk, text));
            }
            if (decided.judged() != null) {
                return judging(decided.judged(), runHandler((MethodHandle) handler, server, exchangeOrContext, params), Kind.TOOL, sdk);
            }
            if (decision.effect() == Effect.ALLOW) {
                return null;
            }
            return decision.isHidden() ? Results.unknownToolError(sdk, tool) : Results.deniedResult(sdk, decision.callerMessage(tool));
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable("server tools/call", tool, t);
            }
            return onError(policy, "server tools/call", t, sdk, tool);
        }
    }

    /**
     * Runs the handler lambda of a call decided after the policy was read, through its own method handle
     * (receiver first unless the lambda is static); the hook it re-enters lets it run once.
     */
    private Object runHandler(MethodHandle handler, Object server, Object exchangeOrContext, Object params) throws Throwable {
        RERUNNING.incrementAndGet();
        RERUN.set(params);
        try {
            return handler.type().parameterCount() == 3
                    ? handler.invoke(server, exchangeOrContext, params)
                    : handler.invoke(exchangeOrContext, params);
        } finally {
            RERUN.remove();
            RERUNNING.decrementAndGet();
        }
    }

    @Override
    public Object serverList(Object result, Object exchangeOrContext) {
        try {
            if (result == null) {
                return null;
            }
            if (!holder.isLoaded()) {
                return Results.monoAfter(loaderOf(result, exchangeOrContext), holder.whenLoaded(),
                        policy -> Results.monoMap(result, list -> filter(policy, list, Side.SERVER, null)));
            }
            PolicySnapshot policy = holder.current();
            return Results.monoMap(result, list -> filter(policy, list, Side.SERVER, null));
        } catch (Throwable t) {
            return unfilterable("server tools/list", result, t);
        }
    }

    @Override
    public Object clientCall(Object result, Object client, Object request) {
        ClassLoader sdk = loaderOf(client, request);
        try {
            if (!holder.isLoaded()) {
                // still reading the policy: wait without holding the subscribing (maybe event-loop) thread
                return Results.monoAfter(sdk, holder.whenLoaded(), policy -> decideClientCall(policy, client, request, result, sdk));
            }
            Supplier<Object> decideOnSubscribe = () -> decideClientCall(holder.current(), client, request, result, sdk);
            return Results.monoDefer(sdk, decideOnSubscribe);
        } catch (Throwable t) {
            Object answer = onError(holder.current(), "client callTool", t, sdk, "?");
            return answer == null ? result : answer;
        }
    }

    private Object decideClientCall(PolicySnapshot policy, Object client, Object request, Object result, ClassLoader sdk) {
        String tool = "?";
        Decision decision = null;
        try {
            tool = ToolLists.toolName(request);
            String name = Identity.serverName(client);
            String address = Identity.serverAddress(client);
            String server = policy.serverSection(name, address);
            ToolCall call = new ToolCall(Side.CLIENT, server, tool, ToolLists.arguments(request),
                    clientSession(client), Identity.clientName(client), listedTools.inputSchema(policy, client, server, tool));
            Decision unpinned = pins.refusal(policy, name, address, server, tool);
            if (unpinned != null) {
                decision = unpinned;
                decider.record(call, unpinned, sdk);
                return Results.deniedResult(sdk, unpinned.callerMessage(tool));
            }
            // the agent's own app is the MCP client here: approvals go to the admin channel
            Decided decided = decider.decide(policy, call, sdk, () -> false, true);
            decision = decided.decision();
            if (decided.held() != null) {
                return decider.awaitApproval(decided.held(), sdk, null, () -> judgedAfterApproval(policy, call, result, sdk),
                        text -> Results.deniedResult(sdk, text));
            }
            if (decided.judged() != null) {
                return judging(decided.judged(), result, Kind.TOOL, sdk);
            }
            return decision.effect() == Effect.ALLOW ? result : Results.deniedResult(sdk, decision.callerMessage(tool));
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable("client callTool", tool, t);
            }
            Object answer = onError(policy, "client callTool", t, sdk, tool);
            return answer == null ? result : answer;
        }
    }

    @Override
    public Object clientList(Object result, Object client) {
        try {
            if (result == null) {
                return null;
            }
            if (!holder.isLoaded()) {
                return Results.monoAfter(loaderOf(client, result), holder.whenLoaded(), policy -> clientList(policy, result, client));
            }
            return clientList(holder.current(), result, client);
        } catch (Throwable t) {
            return unfilterable("client listTools", result, t);
        }
    }

    private Object clientList(PolicySnapshot policy, Object result, Object client) throws ReflectiveOperationException {
        return Results.monoMap(result, list -> {
            listedTools.remember(client, list, "client listTools");
            String name = Identity.serverName(client);
            String address = Identity.serverAddress(client);
            sections.listed(policy, name, address, null);
            String section = policy.serverSection(name, address);
            Predicate<String> pinned = pinned(policy, list, name, address, section);
            if (pinned == null) {
                return filter(policy, list, Side.CLIENT, section);
            }
            return ListFilter.listed(policy, list, Side.CLIENT, section, "client tools/list",
                    (tools, keep) -> ToolLists.filterTools(tools, tool -> pinned.test(tool) && keep.test(tool)));
        });
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
            Set<String> hidden = pins.listed(policy, name, address, section, ToolLists.definitionHashes(list),
                    ToolLists.hasNextPage(list));
            return hidden.isEmpty() ? null : tool -> !hidden.contains(tool);
        } catch (Throwable t) {
            Diagnostics.adviceError("client tools/list (pinned definitions)", t);
            return policy.failOpen() ? null : tool -> false;
        }
    }

    @Override
    public Object transportContext(Object context, Object request) {
        try {
            String credential = Identity.header(request, "Authorization");
            boolean hasCredential = credential != null && !credential.isBlank();
            Object caller = callerOf(request, hasCredential ? credential : null);
            if (!hasCredential && caller == CallerOutcome.NONE) {
                return context;
            }
            return Identity.withPrincipal(context, hasCredential ? Identity.principalOf(credential) : null,
                    caller == CallerOutcome.NONE ? null : caller);
        } catch (Throwable t) {
            // the call is still decided; its caller is then known by clientInfo.name only
            Diagnostics.adviceError("HTTP transport context (caller identity)", t);
            return context;
        }
    }

    /**
     * Who the request's caller is (issue 32): the principal the app verified (Spring Security, a servlet container),
     * else the Bearer token the agent verified itself when the policy names a key source ({@code identity.jwt}), else
     * {@link CallerOutcome#NONE}.
     */
    private Object callerOf(Object request, String credential) {
        Caller app = AppPrincipal.of(request);
        if (app != null) {
            return CallerOutcome.of(app);
        }
        CallerOutcome token = tokenCaller(credential);
        Object deferred = AppPrincipal.deferred(request);
        return deferred != null ? new DeferredCaller(deferred, token) : token;
    }

    /** What the Bearer token in {@code credential} makes of the caller, when the policy names a key source. */
    private CallerOutcome tokenCaller(String credential) {
        if (credential == null || !holder.isLoaded()) {
            return CallerOutcome.NONE;
        }
        PolicySnapshot policy = holder.current();
        if (!policy.namesKeySource()) {
            return CallerOutcome.NONE;
        }
        return JwtIdentity.of(policy, credential);
    }

    @Override
    public Object emitSerialized(Object sink, Object message) {
        return SerializedSends.emit(sink, message);
    }

    @Override
    public Object serverMessage(Object session, Object message) {
        try {
            if (heldRequests != null) {
                heldRequests.arriving(session, message);
            }
        } catch (Throwable t) {
            // the message goes on as it is; a held call it cancelled then waits for its decision or timeout
            Diagnostics.adviceError("server session message (cancels of held calls)", t);
        }
        return null;
    }

    @Override
    public Object serverSessionClosed(Object session) {
        try {
            if (heldRequests != null) {
                heldRequests.closed(session);
            }
        } catch (Throwable t) {
            Diagnostics.adviceError("server session close (its held calls)", t);
        }
        return null;
    }

    @Override
    public Object serverAsk(Object server, Object exchangeOrContext, Object params, Object handler, String kindWord) {
        Kind kind = kindOf(kindWord);
        if (Rerun.isRerun(params)) {
            return null;
        }
        ClassLoader sdk = loaderOf(exchangeOrContext, params);
        if (holder.isLoaded()) {
            return serverAskBy(holder.current(), kind, server, exchangeOrContext, params, sdk, handler);
        }
        try {
            return Results.monoAfter(sdk, holder.whenLoaded(), policy -> {
                Object answer = serverAskBy(policy, kind, server, exchangeOrContext, params, sdk, handler);
                return answer != null ? answer : rerunHandler(handler, server, exchangeOrContext, params);
            });
        } catch (Throwable t) {
            return onError(holder.notYetLoaded(), kind, "server " + kind.word() + " (waiting for the policy)", t, sdk, "?");
        }
    }

    /** {@link #serverCallBy} for a {@code resources/read} or {@code prompts/get}. */
    private Object serverAskBy(PolicySnapshot policy, Kind kind, Object server, Object exchangeOrContext, Object params, ClassLoader sdk,
            Object handler) {
        Who who;
        try {
            who = Identity.who(exchangeOrContext);
        } catch (Throwable t) {
            return onError(policy, kind, "server " + kind.word() + " (who is calling)", t, sdk, "?");
        }
        if (!(who.caller() instanceof DeferredCaller deferred)) {
            return serverAsk(policy, kind, server, exchangeOrContext, params, sdk, handler, who);
        }
        try {
            return Results.monoAfterAnswer(deferred.principal(), DeferredCaller.UNREADABLE, principal -> {
                Object answer = serverAsk(policy, kind, server, exchangeOrContext, params, sdk, handler, who.withCaller(deferred.resolve(principal)));
                return answer != null ? answer : rerunHandler(handler, server, exchangeOrContext, params);
            });
        } catch (Throwable t) {
            return onError(policy, kind, "server " + kind.word() + " (the app's principal)", t, sdk, "?");
        }
    }

    /**
     * Decides a server {@code resources/read} or {@code prompts/get} by {@code policy} (SPEC §12): {@code null} to run
     * the handler as it is; else the {@code Mono} to answer with (a denial's JSON-RPC error, or the handler's answer
     * judged by the rule's {@code result}).
     */
    private Object serverAsk(PolicySnapshot policy, Kind kind, Object server, Object exchangeOrContext, Object params, ClassLoader sdk,
            Object handler, Who who) {
        String name = "?";
        Decision decision = null;
        try {
            name = kind == Kind.RESOURCE ? ToolLists.resourceUri(params) : ToolLists.toolName(params);
            ToolCall call = (kind == Kind.RESOURCE ? ToolCall.resource(Side.SERVER, null, name, who.sessionId(), who.clientId())
                    : ToolCall.prompt(Side.SERVER, null, name, ToolLists.arguments(params), who.sessionId(), who.clientId()))
                    .withCaller(CallerOutcome.callerOf(who.caller()));
            Decided decided = decider.decide(policy, call, sdk, () -> elicitation.canAsk(exchangeOrContext, call.sessionId()), true);
            decision = decided.decision();
            if (decided.held() != null) {
                PendingCall held = decided.held();
                heldRequests.bind(params, held);
                Runnable askClient = Approvals.ELICITATION.equals(held.via()) ? () -> elicitation.ask(held, exchangeOrContext) : null;
                return decider.awaitApproval(held, sdk, askClient,
                        () -> judgedAfterApproval(policy, call, rerunHandler(handler, server, exchangeOrContext, params), sdk),
                        text -> Results.failedMono(sdk, Results.deniedError(sdk, text)));
            }
            if (decided.judged() != null) {
                return judging(decided.judged(), rerunHandler(handler, server, exchangeOrContext, params), kind, sdk);
            }
            if (decision.effect() == Effect.ALLOW) {
                return null;
            }
            return Results.failedMono(sdk, refusal(decision, kind, name, sdk));
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable("server " + kind.word(), name, t);
            }
            return onError(policy, kind, "server " + kind.word(), t, sdk, name);
        }
    }

    /**
     * A refused resource read or prompt get: for a hidden one, the SDK's own not-found error; else the §5 denial, a
     * JSON-RPC error.
     */
    private static RuntimeException refusal(Decision decision, Kind kind, String name, ClassLoader sdk) throws ReflectiveOperationException {
        return decision.isHidden() ? Results.notFoundError(sdk, kind == Kind.RESOURCE, name)
                : Results.deniedError(sdk, decision.callerMessage(kind, name));
    }

    /** The bridge's word for a resource or a prompt, as the engine's {@link Kind}. */
    private static Kind kindOf(String word) {
        return Kind.RESOURCE.word().equals(word) ? Kind.RESOURCE : Kind.PROMPT;
    }

    /** Runs a resource or prompt handler lambda again for a call decided after its hook returned. */
    private static Object rerunHandler(Object handler, Object server, Object exchangeOrContext, Object params) throws Throwable {
        MethodHandle lambda = (MethodHandle) handler;
        return lambda.type().parameterCount() == 3 ? Rerun.run(params, lambda, server, exchangeOrContext, params)
                : Rerun.run(params, lambda, exchangeOrContext, params);
    }

    @Override
    public Object serverListed(Object result, Object exchangeOrContext, String kindWord, String items, String key) {
        Kind kind = kindOf(kindWord);
        try {
            if (result == null) {
                return null;
            }
            String where = "server " + items + " list";
            if (!holder.isLoaded()) {
                return Results.monoAfter(loaderOf(result, exchangeOrContext), holder.whenLoaded(), policy -> Results.monoMap(result,
                        list -> ListFilter.listed(policy, list, kind, Side.SERVER, null, where,
                                (all, keep) -> Answers.filterList(all, items, key, keep))));
            }
            PolicySnapshot policy = holder.current();
            return Results.monoMap(result, list -> ListFilter.listed(policy, list, kind, Side.SERVER, null, where,
                    (all, keep) -> Answers.filterList(all, items, key, keep)));
        } catch (Throwable t) {
            return unfilterable("server " + items + " list", result, t);
        }
    }

    @Override
    public Object clientAsk(Object result, Object client, Object request, String kindWord) {
        Kind kind = kindOf(kindWord);
        ClassLoader sdk = loaderOf(client, request);
        try {
            if (!holder.isLoaded()) {
                return Results.monoAfter(sdk, holder.whenLoaded(), policy -> decideClientAsk(policy, kind, client, request, result, sdk));
            }
            Supplier<Object> decideOnSubscribe = () -> decideClientAsk(holder.current(), kind, client, request, result, sdk);
            return Results.monoDefer(sdk, decideOnSubscribe);
        } catch (Throwable t) {
            Object answer = onError(holder.current(), kind, "client " + kind.word(), t, sdk, "?");
            return answer == null ? result : answer;
        }
    }

    private Object decideClientAsk(PolicySnapshot policy, Kind kind, Object client, Object request, Object result, ClassLoader sdk) {
        String name = "?";
        Decision decision = null;
        try {
            name = kind == Kind.RESOURCE ? ToolLists.resourceUri(request) : ToolLists.toolName(request);
            String server = policy.serverSection(Identity.serverName(client), Identity.serverAddress(client));
            ToolCall call = kind == Kind.RESOURCE ? ToolCall.resource(Side.CLIENT, server, name, clientSession(client), Identity.clientName(client))
                    : ToolCall.prompt(Side.CLIENT, server, name, ToolLists.arguments(request), clientSession(client), Identity.clientName(client));
            Decided decided = decider.decide(policy, call, sdk, () -> false, true);
            decision = decided.decision();
            if (decided.held() != null) {
                return decider.awaitApproval(decided.held(), sdk, null, () -> judgedAfterApproval(policy, call, result, sdk),
                        text -> Results.monoError(result, Results.deniedError(sdk, text)));
            }
            if (decided.judged() != null) {
                return judging(decided.judged(), result, kind, sdk);
            }
            if (decision.effect() == Effect.ALLOW) {
                return result;
            }
            return Results.failedMono(sdk, refusal(decision, kind, name, sdk));
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable("client " + kind.word(), name, t);
            }
            Object answer = onError(policy, kind, "client " + kind.word(), t, sdk, name);
            return answer == null ? result : answer;
        }
    }

    @Override
    public Object clientListed(Object result, Object client, String kindWord, String items, String key) {
        Kind kind = kindOf(kindWord);
        try {
            if (result == null) {
                return null;
            }
            if (!holder.isLoaded()) {
                return Results.monoAfter(loaderOf(client, result), holder.whenLoaded(),
                        policy -> clientListed(policy, result, client, kind, items, key));
            }
            return clientListed(holder.current(), result, client, kind, items, key);
        } catch (Throwable t) {
            return unfilterable("client " + items + " list", result, t);
        }
    }

    private Object clientListed(PolicySnapshot policy, Object result, Object client, Kind kind, String items, String key)
            throws ReflectiveOperationException {
        return Results.monoMap(result, list -> {
            String server = policy.serverSection(Identity.serverName(client), Identity.serverAddress(client));
            return ListFilter.listed(policy, list, kind, Side.CLIENT, server, "client " + items + " list",
                    (all, keep) -> Answers.filterList(all, items, key, keep));
        });
    }

    /**
     * {@code answer} (the handler's or the server's {@code Mono}) judged by the call's result rule when it comes
     * (SPEC §13): redacted, or the §5 denial (a tool's {@code isError} result; a resource's or prompt's JSON-RPC
     * error). The call's line is logged then, or, when no answer comes, once the {@code Mono} ends.
     */
    private static Object judging(Judged judged, Object answer, Kind kind, ClassLoader sdk) throws ReflectiveOperationException {
        Object mapped = Results.monoMap(answer, value -> {
            try {
                return judged.answer(value, Answers::read, Answers::rebuild, text -> {
                    if (kind == Kind.TOOL) {
                        return Results.deniedCallToolResult(sdk, text);
                    }
                    throw Results.deniedError(sdk, text);
                });
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        });
        return Results.monoFinally(mapped, judged::finish);
    }

    /** A held call's answer once approved: judged when its rule has a {@code result}. */
    private Object judgedAfterApproval(PolicySnapshot policy, ToolCall call, Object answer, ClassLoader sdk) throws ReflectiveOperationException {
        Judged judged = decider.judgedAfterApproval(policy, call, sdk);
        return judged == null ? answer : judging(judged, answer, call.kind(), sdk);
    }

    /**
     * While a server call is held, a {@code notifications/progress} every {@value #PROGRESS_SECONDS} s when its
     * request carried a {@code progressToken}, so a client that resets its request timeout on progress (the
     * TypeScript SDK's {@code resetTimeoutOnProgress}) keeps waiting. SDK 0.14+; the stateless server has no
     * exchange to send it through.
     */
    private void keepWaiting(PendingCall held, Object exchange, Object params) {
        Object token = ToolLists.progressToken(params);
        if (token == null || exchange == null) {
            return;
        }
        long[] ticks = {0};
        java.time.Duration every = TestHooks.APPROVAL_PROGRESS_MS > 0 ? java.time.Duration.ofMillis(TestHooks.APPROVAL_PROGRESS_MS)
                : java.time.Duration.ofSeconds(PROGRESS_SECONDS);
        approvals.whileHeld(held, every, () -> {
            try {
                ticks[0]++;
                if (!Results.sendProgress(exchange, token, ticks[0], "awaiting approval " + held.id())) {
                    throw new IllegalStateException("no progress notifications in this SDK");
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                Diagnostics.debug("approval " + held.id() + ": no progress notification (" + e + ")");
                throw new IllegalStateException(e);
            }
        });
    }

    /**
     * Runs inside the SDK's {@code Mono.map}: with {@code on_error=deny} a list that cannot be filtered
     * becomes empty, or, if even that fails, the thrown error fails the {@code tools/list} itself.
     */
    private Object filter(PolicySnapshot policy, Object listToolsResult, Side side, String server) {
        return ListFilter.listed(policy, listToolsResult, side, server, side.word() + " tools/list", ToolLists::filterTools);
    }

    /** The list's {@code Mono} could not even be wrapped: with {@code on_error=deny} it becomes an error {@code Mono}. */
    private Object unfilterable(String where, Object result, Throwable t) {
        Diagnostics.adviceError(where, t);
        if (result == null || holder.failOpen()) {
            return result;
        }
        try {
            return Results.monoError(result, new IllegalStateException("mcp-policy could not filter " + where
                    + " and shows no tool (on_error=deny)", t));
        } catch (Throwable again) {
            Diagnostics.adviceError(where + " (failing the list)", again);
            throw new IllegalStateException("mcp-policy could not filter " + where + " and shows no tool (on_error=deny)", t);
        }
    }

    /** {@link #onError(PolicySnapshot, String, Throwable, ClassLoader, String)} for a call of any kind: a resource's or prompt's denial is an error. */
    private Object onError(PolicySnapshot policy, Kind kind, String where, Throwable t, ClassLoader sdk, String name) {
        if (kind == Kind.TOOL) {
            return onError(policy, where, t, sdk, name);
        }
        Decision decision = policy.internalError(where, name, t);
        if (decision.effect() == Effect.ALLOW) {
            return null;
        }
        try {
            return Results.failedMono(sdk, Results.deniedError(sdk, decision.callerMessage(kind, name)));
        } catch (Throwable again) {
            throw undeliverable(where, name, again);
        }
    }

    /** An agent bug while deciding: reported with an id, then denied (or, with on_error=allow, let through). */
    private Object onError(PolicySnapshot policy, String where, Throwable t, ClassLoader sdk, String tool) {
        Decision decision = policy.internalError(where, tool, t);
        if (decision.effect() == Effect.ALLOW) {
            return null;
        }
        try {
            return Results.deniedResult(sdk, decision.callerMessage(tool));
        } catch (Throwable again) {
            throw undeliverable(where, tool, again);
        }
    }

    /**
     * A denial that could not be built: the call must still not run, so the hook throws into the SDK
     * (which answers the caller with an error). Never fails open: the policy did decide.
     */
    private static IllegalStateException undeliverable(String where, String tool, Throwable t) {
        Diagnostics.adviceError(where + " (delivering the denial)", "tool " + tool, t);
        return new IllegalStateException("mcp-policy denied tool call '" + tool + "' and could not deliver the denial", t);
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
