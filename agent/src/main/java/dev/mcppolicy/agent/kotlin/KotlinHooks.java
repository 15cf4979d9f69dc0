package dev.mcppolicy.agent.kotlin;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.ServerSections;
import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.decide.CallDecider;
import dev.mcppolicy.agent.decide.CallDecider.Decided;
import dev.mcppolicy.agent.decide.Judged;
import dev.mcppolicy.agent.decide.ListFilter;
import dev.mcppolicy.agent.decide.Rerun;
import dev.mcppolicy.agent.decide.Sneaky;
import dev.mcppolicy.agent.approval.PendingCall;
import dev.mcppolicy.agent.kotlin.KotlinObjects.Listed;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.pins.ToolPins;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Policy for the Kotlin MCP SDK ({@code io.modelcontextprotocol:kotlin-sdk}), by the same decision path as the Java
 * SDK's hooks ({@link CallDecider}): one {@link PolicySnapshot} per call or list, one decision line per call.
 *
 * <p>Server: {@code Server.handleCallTool}, {@code handleReadResource} and {@code handleGetPrompt} are {@code suspend}
 * methods; their hooks decide on the first entry (a resumption of their state machine passes its own continuation and
 * runs on). A tool's denial is its result, a {@code CallToolResult} with {@code isError} and the SPEC §5 text; a read's
 * or a prompt's is a thrown {@code McpException} (-32602, the §5 text), which the SDK answers as a JSON-RPC error. A
 * hidden one gets the SDK's own answer: "Tool X not found", -32002 "Resource not found" (with its {@code uri}), -32602
 * "Prompt not found: X". The four lists are filtered. The caller is the session: {@code session} its id, {@code client}
 * its {@code clientInfo.name}.
 *
 * <p>Client: {@code Client.callTool(request, options)} (the by-name overload builds a request and calls it),
 * {@code readResource} and {@code getPrompt} decide before anything is sent; the four lists filter what their
 * continuation gets. A {@code servers} section applies by the {@code serverInfo.name} the client's server declared.
 * Pins (SPEC §14) hold the tool definitions a {@code listTools} got.
 *
 * <p>Results (SPEC §13): an allowed call whose rule has a {@code result} runs through its method's own handle with a
 * continuation that judges what it is resumed with (or the answer it returns at once is judged), so the caller sees
 * the answer redacted, or the denial.
 *
 * <p>A call that must wait (held for approval, or before the policy is read) suspends: the hook returns
 * {@code COROUTINE_SUSPENDED}, and once decided the hooked method runs (through its own handle) or the denial is the
 * result, on the coroutine's own dispatcher; no thread is held meanwhile.
 */
public final class KotlinHooks implements PolicyBridge.KotlinHooks {
    /** How long a client's list waits for the first policy before it shows nothing ({@code on_error=deny}). */
    private static final long LIST_WAIT_SECONDS = 5;
    /** JSON-RPC's invalid params: a read's or prompt's denial, and the SDK's own "Prompt not found". */
    private static final int INVALID_PARAMS = -32602;
    /** MCP's resource not found, as the SDK answers a URI it does not have. */
    private static final int RESOURCE_NOT_FOUND = -32002;

    private final PolicyHolder holder;
    private final CallDecider decider;
    private final ServerSections sections;
    /** Client side, per client: the tools it listed ({@code Tool}s by name), their schemas read when a rule needs one. */
    private final Map<Object, Map<String, Object>> listed = Collections.synchronizedMap(new WeakHashMap<>());
    /** SPEC §14: the tool definitions each client's server is held to. */
    private final ToolPins pins = ToolPins.shared();

    public KotlinHooks(PolicyHolder holder, DecisionLog log, Approvals approvals, boolean showArguments, ServerSections sections) {
        this.holder = holder;
        this.sections = sections;
        this.decider = new CallDecider(log, approvals, showArguments);
    }

    @Override
    public Object serverCall(Object server, Object session, Object request, Object continuation, Object call) {
        return serverAsk(Kind.TOOL, server, session, request, continuation, call);
    }

    @Override
    public Object serverAsk(String kind, Object server, Object session, Object request, Object continuation, Object call) {
        return serverAsk(kindOf(kind), server, session, request, continuation, call);
    }

    private static Kind kindOf(String word) {
        return Kind.RESOURCE.word().equals(word) ? Kind.RESOURCE : Kind.PROMPT.word().equals(word) ? Kind.PROMPT : Kind.TOOL;
    }

    private static String nameOf(Kind kind, Object request) {
        return kind == Kind.RESOURCE ? KotlinObjects.uri(request) : KotlinObjects.toolName(request);
    }

    private static String method(Kind kind) {
        return kind == Kind.TOOL ? "tools/call" : kind == Kind.RESOURCE ? "resources/read" : "prompts/get";
    }

    private Object serverAsk(Kind kind, Object server, Object session, Object request, Object continuation, Object call) {
        if (Rerun.isRerun(request) || continuation.getClass().getName().startsWith(KotlinObjects.SERVER_STATE)) {
            // the call run by rerun(), or a resumption of a hooked method's state machine: decided already
            return null;
        }
        ClassLoader sdk = server.getClass().getClassLoader();
        Invocation invocation = new Invocation((MethodHandle) call, request, continuation, sdk, server, session, request, continuation);
        String where = "Kotlin server " + method(kind);
        String name = "?";
        Object answer;
        try {
            name = nameOf(kind, request);
            if (!holder.isLoaded()) {
                return suspendUntil(holder.whenLoaded(), continuation, sdk, kind, policy -> {
                    Object decided = decideServer(policy, kind, server, session, request, invocation, sdk);
                    return decided != null ? decided : invocation.run();
                });
            }
            answer = decideServer(holder.current(), kind, server, session, request, invocation, sdk);
        } catch (Throwable t) {
            answer = onError(holder.current(), kind, where, name, t, sdk, null);
        }
        return delivered(answer, where, name);
    }

    private Object decideServer(PolicySnapshot policy, Kind kind, Object server, Object session, Object request, Invocation invocation,
            ClassLoader sdk) throws Throwable {
        String name = nameOf(kind, request);
        String sessionId = KotlinObjects.sessionId(session);
        String client = KotlinObjects.clientName(session);
        ToolCall call;
        if (kind == Kind.TOOL) {
            Map<String, ?> schema = policy.needsInputSchema(Side.SERVER, null, name) ? KotlinObjects.serverInputSchema(server, name) : null;
            call = new ToolCall(Side.SERVER, null, name, KotlinObjects.arguments(request), sessionId, client, schema);
        } else {
            call = kind == Kind.RESOURCE ? ToolCall.resource(Side.SERVER, null, name, sessionId, client)
                    : ToolCall.prompt(Side.SERVER, null, name, KotlinObjects.promptArguments(request), sessionId, client);
        }
        Decided decided = decider.decide(policy, call, sdk, () -> false, true);
        if (decided.held() != null) {
            return awaitApproval(policy, decided.held(), kind, invocation, sdk);
        }
        if (decided.judged() != null) {
            return judging(decided.judged(), invocation, kind, sdk);
        }
        Decision decision = decided.decision();
        if (decision.effect() == Effect.ALLOW) {
            return null;
        }
        return decision.isHidden() ? notFound(kind, sdk, name) : denied(kind, sdk, decision.callerMessage(kind, name));
    }

    /** A denial: a tool's {@code isError} result; a read's or prompt's failure ({@code McpException}, -32602). */
    private static Object denied(Kind kind, ClassLoader sdk, String text) throws ReflectiveOperationException {
        return kind == Kind.TOOL ? KotlinObjects.errorResult(sdk, text)
                : KotlinObjects.failure(sdk, KotlinObjects.mcpException(sdk, INVALID_PARAMS, text, null));
    }

    /** What the server answers for a tool, resource or prompt it does not have: so the agent answers a hidden one. */
    private static Object notFound(Kind kind, ClassLoader sdk, String name) throws ReflectiveOperationException {
        if (kind == Kind.TOOL) {
            return KotlinObjects.toolNotFound(sdk, name);
        }
        return KotlinObjects.failure(sdk, kind == Kind.RESOURCE ? KotlinObjects.mcpException(sdk, RESOURCE_NOT_FOUND, "Resource not found", name)
                : KotlinObjects.mcpException(sdk, INVALID_PARAMS, "Prompt not found: " + name, null));
    }

    /**
     * What a hook returns for {@code answer}: the answer, or, for a failure ({@code Result.Failure}: a denial, or the
     * method's own exception when it ran), that exception thrown, as the {@code suspend} method would throw it.
     */
    private static Object delivered(Object answer, String where, String name) {
        if (KotlinObjects.isFailure(answer)) {
            Throwable exception = KotlinObjects.exception(answer);
            if (exception == null) {
                throw new IllegalStateException("mcp-policy denied " + where + " '" + name + "' and could not deliver the denial");
            }
            throw Sneaky.rethrow(exception);
        }
        return answer;
    }


    /**
     * An allowed call whose answer its rule judges (SPEC §13): runs the hooked method with a continuation that judges
     * what it is resumed with; an answer it returns at once is judged here. A failure passes as it is (the call's line
     * is then logged as decided).
     */
    private Object judging(Judged judged, Invocation invocation, Kind kind, ClassLoader sdk) throws Throwable {
        Object judging = KotlinObjects.mapping(invocation.continuation, value -> judgeResumed(judged, value, kind, sdk, invocation.request));
        Object answer = invocation.runWith(judging);
        if (answer == KotlinObjects.suspended(sdk)) {
            return answer;
        }
        if (KotlinObjects.isFailure(answer)) {
            judged.finish();
            return answer;
        }
        return judge(judged, answer, kind, sdk);
    }

    private Object judgeResumed(Judged judged, Object value, Kind kind, ClassLoader sdk, Object request) {
        if (KotlinObjects.isFailure(value)) {
            judged.finish();
            return value;
        }
        try {
            return judge(judged, value, kind, sdk);
        } catch (Throwable t) {
            return onError(holder.current(), kind, "Kotlin " + method(kind) + " (judging its answer)", nameOf(kind, request), t, sdk, value);
        }
    }

    private static Object judge(Judged judged, Object answer, Kind kind, ClassLoader sdk) throws Throwable {
        return judged.answer(answer, KotlinAnswers::read, KotlinAnswers::rebuild, text -> denied(kind, sdk, text));
    }

    @Override
    public Object serverList(Object result, Object server) {
        Listed list = KotlinObjects.listed(result);
        try {
            if (list == null) {
                return result;
            }
            PolicySnapshot policy = holder.isLoaded() ? holder.current() : holder.whenLoaded().get(LIST_WAIT_SECONDS, TimeUnit.SECONDS);
            return filter(policy, result, list, Side.SERVER, null, null);
        } catch (Throwable t) {
            return unfilterable("Kotlin server " + (list == null ? "list" : list.method), result, t);
        }
    }

    @Override
    public Object clientCall(Object client, Object request, Object options, Object continuation, Object call) {
        return clientAsk(Kind.TOOL, client, request, options, continuation, call);
    }

    @Override
    public Object clientAsk(String kind, Object client, Object request, Object options, Object continuation, Object call) {
        return clientAsk(kindOf(kind), client, request, options, continuation, call);
    }

    private Object clientAsk(Kind kind, Object client, Object request, Object options, Object continuation, Object call) {
        if (Rerun.isRerun(request)) {
            return null;
        }
        ClassLoader sdk = client.getClass().getClassLoader();
        // callTool(request, options, continuation): the handle's own argument order
        Invocation invocation = new Invocation((MethodHandle) call, request, continuation, sdk, client, request, options, continuation);
        String where = "Kotlin client " + method(kind);
        String name = "?";
        Object answer;
        try {
            name = nameOf(kind, request);
            if (!holder.isLoaded()) {
                return suspendUntil(holder.whenLoaded(), continuation, sdk, kind, policy -> {
                    Object decided = decideClient(policy, kind, client, request, invocation, sdk);
                    return decided != null ? decided : invocation.run();
                });
            }
            answer = decideClient(holder.current(), kind, client, request, invocation, sdk);
        } catch (Throwable t) {
            answer = onError(holder.current(), kind, where, name, t, sdk, null);
        }
        return delivered(answer, where, name);
    }

    private Object decideClient(PolicySnapshot policy, Kind kind, Object client, Object request, Invocation invocation, ClassLoader sdk)
            throws Throwable {
        String name = nameOf(kind, request);
        String serverName = KotlinObjects.serverName(client);
        String server = policy.serverSection(serverName, null);
        String session = "client-" + Integer.toHexString(System.identityHashCode(client));
        String own = KotlinObjects.ownName(client);
        ToolCall call;
        if (kind == Kind.TOOL) {
            Map<String, ?> schema = null;
            if (policy.needsInputSchema(Side.CLIENT, server, name)) {
                Map<String, Object> tools = listed.get(client);
                schema = tools == null ? null : KotlinObjects.inputSchema(tools.get(name));
            }
            call = new ToolCall(Side.CLIENT, server, name, KotlinObjects.arguments(request), session, own, schema);
            Decision unpinned = pins.refusal(policy, serverName, null, server, name);
            if (unpinned != null) {
                decider.record(call, unpinned, sdk);
                return KotlinObjects.errorResult(sdk, unpinned.callerMessage(name));
            }
        } else {
            call = kind == Kind.RESOURCE ? ToolCall.resource(Side.CLIENT, server, name, session, own)
                    : ToolCall.prompt(Side.CLIENT, server, name, KotlinObjects.promptArguments(request), session, own);
        }
        // the agent's own app is the MCP client here: approvals go to the admin channel
        Decided decided = decider.decide(policy, call, sdk, () -> false, true);
        if (decided.held() != null) {
            return awaitApproval(policy, decided.held(), kind, invocation, sdk);
        }
        if (decided.judged() != null) {
            return judging(decided.judged(), invocation, kind, sdk);
        }
        Decision decision = decided.decision();
        return decision.effect() == Effect.ALLOW ? null : denied(kind, sdk, decision.callerMessage(kind, name));
    }

    @Override
    public Object clientListing(Object continuation, Object client) {
        try {
            return KotlinObjects.mapping(continuation, result -> clientList(result, client));
        } catch (Throwable t) {
            Diagnostics.adviceError("Kotlin client list (wrapping its continuation)", t);
            return continuation;
        }
    }

    @Override
    public Object clientList(Object result, Object client) {
        // COROUTINE_SUSPENDED (the continuation gets the list), or a failure: as it is
        Listed list = KotlinObjects.listed(result);
        try {
            if (list == null) {
                return result;
            }
            PolicySnapshot policy = holder.isLoaded() ? holder.current() : holder.whenLoaded().get(LIST_WAIT_SECONDS, TimeUnit.SECONDS);
            String name = KotlinObjects.serverName(client);
            String section = policy.serverSection(name, null);
            Predicate<String> pinned = null;
            if (list == Listed.TOOLS) {
                listed.put(client, KotlinObjects.tools(result));
                sections.listed(policy, name, null, null);
                pinned = pinned(policy, result, name, section);
            }
            return filter(policy, result, list, Side.CLIENT, section, pinned);
        } catch (Throwable t) {
            return unfilterable("Kotlin client " + (list == null ? "list" : list.method), result, t);
        }
    }

    /**
     * What the pins let a client's tool list show (SPEC §14): {@code null} when they hide nothing. A list whose
     * definitions cannot be read is an advice error: with {@code on_error=deny} the pins then show none of its tools.
     */
    private Predicate<String> pinned(PolicySnapshot policy, Object list, String name, String section) {
        if (!pins.pinsTools(policy)) {
            return null;
        }
        try {
            Set<String> hidden = pins.listed(policy, name, null, section, KotlinObjects.definitionHashes(list), KotlinObjects.hasNextPage(list));
            return hidden.isEmpty() ? null : tool -> !hidden.contains(tool);
        } catch (Throwable t) {
            Diagnostics.adviceError("Kotlin client tools/list (pinned definitions)", t);
            return policy.failOpen() ? null : tool -> false;
        }
    }

    /** A list without hidden and outright-denied entries (and tools the pins hide), failing closed ({@link ListFilter}). */
    private static Object filter(PolicySnapshot policy, Object result, Listed list, Side side, String server, Predicate<String> pinned) {
        return ListFilter.listed(policy, result, list.kind, side, server, "Kotlin " + side.word() + " " + list.method,
                (all, keep) -> list.filter(all, pinned == null ? keep : entry -> pinned.test(entry) && keep.test(entry)));
    }

    /** A list that could not be filtered at all: shown as it is with {@code on_error=allow}, else the list fails. */
    private Object unfilterable(String where, Object result, Throwable t) {
        Diagnostics.adviceError(where, t);
        if (result == null || holder.failOpen()) {
            return result;
        }
        throw new IllegalStateException("mcp-policy could not filter " + where + " and shows nothing (on_error=deny)", t);
    }

    /**
     * A held call: suspends until a person (or the timeout) decides, then runs the hooked method (approved; its answer
     * judged when its rule has a {@code result}) or resumes with the §5 denial, on the coroutine's dispatcher. A call
     * given up answers with a denial too: its caller is suspended and must get an answer.
     */
    private Object awaitApproval(PolicySnapshot policy, PendingCall held, Kind kind, Invocation invocation, ClassLoader sdk) throws Throwable {
        return suspendUntil(held.outcome(), invocation.continuation, sdk, kind,
                outcome -> decider.answer(held, outcome, sdk, () -> {
                    Judged judged = decider.judgedAfterApproval(policy, held.call(), sdk);
                    return judged == null ? invocation.run() : judging(judged, invocation, kind, sdk);
                }, text -> denied(kind, sdk, text),
                        () -> denied(kind, sdk, "Policy denied " + kind.word() + " '" + held.call().tool() + "': the approval was given up")));
    }

    /** What goes on once a future completes: the hooked method's result, or {@code COROUTINE_SUSPENDED} when it resumes by itself. */
    @FunctionalInterface
    private interface Then<T> {
        Object apply(T value) throws Throwable;
    }

    /**
     * Returns {@code COROUTINE_SUSPENDED}; once {@code future} completes, {@code then} runs on {@code continuation}'s
     * dispatcher and its result resumes the continuation (unless it is {@code COROUTINE_SUSPENDED} itself: the hooked
     * method, run again, resumes it). An agent fault there resumes with the {@code on_error} denial.
     */
    private <T> Object suspendUntil(CompletableFuture<T> future, Object continuation, ClassLoader sdk, Kind kind, Then<T> then)
            throws ReflectiveOperationException {
        Object suspended = KotlinObjects.suspended(sdk);
        String where = "Kotlin " + method(kind);
        future.whenComplete((value, failure) -> {
            try {
                KotlinObjects.dispatch(continuation, () -> {
                    Object answer;
                    try {
                        if (failure != null) {
                            throw failure;
                        }
                        answer = then.apply(value);
                    } catch (Throwable t) {
                        answer = onError(holder.current(), kind, where + " (after waiting)", "?", t, sdk, continuation);
                    }
                    if (answer != suspended) {
                        resume(continuation, answer);
                    }
                });
            } catch (Throwable t) {
                Diagnostics.adviceError(where + " (resuming it)", t);
                resume(continuation, onError(holder.current(), kind, where + " (resuming it)", "?", t, sdk, continuation));
            }
        });
        return suspended;
    }

    private static void resume(Object continuation, Object answer) {
        try {
            KotlinObjects.resumeWith(continuation, answer);
        } catch (Throwable t) {
            Diagnostics.adviceError("Kotlin call (resuming it)", t);
        }
    }

    /**
     * An agent fault: reported with an id, then denied (its answer), or with {@code on_error=allow} run ({@code null} on
     * the first entry; after a wait, or once the method ran, it cannot be run from here, so it is denied).
     */
    private Object onError(PolicySnapshot policy, Kind kind, String where, String name, Throwable t, ClassLoader sdk, Object waited) {
        Decision decision = policy.internalError(where, name, t);
        if (decision.effect() == Effect.ALLOW && waited == null) {
            return null;
        }
        try {
            return denied(kind, sdk, decision.effect() == Effect.ALLOW
                    ? "Policy denied " + kind.word() + " '" + name + "': an internal error after waiting" : decision.callerMessage(kind, name));
        } catch (Throwable again) {
            Diagnostics.adviceError(where + " (delivering the denial)", kind.word() + " " + name, again);
            throw new IllegalStateException("mcp-policy denied " + kind.word() + " '" + name + "' and could not deliver the denial", t);
        }
    }

    /**
     * The hooked call itself, to run once it is decided: its handle and arguments (the receiver first, the continuation
     * last), the request being the one its hook lets through once.
     */
    private static final class Invocation {
        private final MethodHandle handle;
        private final Object request;
        private final Object continuation;
        private final ClassLoader sdk;
        private final Object[] arguments;

        Invocation(MethodHandle handle, Object request, Object continuation, ClassLoader sdk, Object... arguments) {
            this.handle = handle;
            this.request = request;
            this.continuation = continuation;
            this.sdk = sdk;
            this.arguments = arguments;
        }

        /** Runs the hooked method: its result, {@code COROUTINE_SUSPENDED}, or a failure holding what it threw. */
        Object run() throws ReflectiveOperationException {
            return runWith(continuation);
        }

        /** {@link #run} with another continuation in its last argument (one that judges the answer). */
        Object runWith(Object resumed) throws ReflectiveOperationException {
            Object[] with = arguments.clone();
            with[with.length - 1] = resumed;
            try {
                return Rerun.run(request, handle, with);
            } catch (Throwable t) {
                return KotlinObjects.failure(sdk, t);
            }
        }
    }
}
