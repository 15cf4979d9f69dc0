package dev.mcppolicy.agent.kotlin;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.ServerSections;
import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.decide.CallDecider;
import dev.mcppolicy.agent.decide.CallDecider.Decided;
import dev.mcppolicy.agent.decide.ListFilter;
import dev.mcppolicy.agent.decide.Rerun;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.lang.invoke.MethodHandle;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Policy for the Kotlin MCP SDK ({@code io.modelcontextprotocol:kotlin-sdk}), by the same decision path as the Java
 * SDK's hooks ({@link CallDecider}): one {@link PolicySnapshot} per call or list, one decision line per call.
 *
 * <p>Server: {@code Server.handleCallTool} is a {@code suspend} method; its hook decides on the first entry (a
 * resumption of its state machine passes its own continuation and runs on). A denial is its result, a
 * {@code CallToolResult} with {@code isError} and the SPEC §5 text; a hidden tool gets the SDK's own
 * "Tool X not found". The caller is the session: {@code session} its id, {@code client} its {@code clientInfo.name}.
 *
 * <p>Client: {@code Client.callTool(request, options)} decides before anything is sent (the by-name overload builds a
 * request and calls it); {@code listTools} filters the list its continuation gets. A {@code servers} section applies by
 * the {@code serverInfo.name} the client's server declared.
 *
 * <p>A call that must wait (held for approval, or before the policy is read) suspends: the hook returns
 * {@code COROUTINE_SUSPENDED}, and once decided the hooked method runs (through its own handle) or the denial is the
 * result, on the coroutine's own dispatcher; no thread is held meanwhile.
 */
public final class KotlinHooks implements PolicyBridge.KotlinHooks {
    /** How long a client's tool list waits for the first policy before it shows no tool ({@code on_error=deny}). */
    private static final long LIST_WAIT_SECONDS = 5;

    private final PolicyHolder holder;
    private final CallDecider decider;
    private final ServerSections sections;
    /** Client side, per client: the tools it listed ({@code Tool}s by name), their schemas read when a rule needs one. */
    private final Map<Object, Map<String, Object>> listed = Collections.synchronizedMap(new WeakHashMap<>());

    public KotlinHooks(PolicyHolder holder, DecisionLog log, Approvals approvals, boolean showArguments, ServerSections sections) {
        this.holder = holder;
        this.sections = sections;
        this.decider = new CallDecider(log, approvals, showArguments);
    }

    @Override
    public Object serverCall(Object server, Object session, Object request, Object continuation, Object call) {
        if (Rerun.isRerun(request) || continuation.getClass().getName().startsWith(KotlinObjects.SERVER_CALL_STATE)) {
            // the call run by rerun(), or a resumption of handleCallTool's state machine: decided already
            return null;
        }
        ClassLoader sdk = server.getClass().getClassLoader();
        Invocation invocation = new Invocation((MethodHandle) call, request, continuation, server, session, request, continuation);
        String tool = "?";
        try {
            tool = KotlinObjects.toolName(request);
            if (!holder.isLoaded()) {
                return suspendUntil(holder.whenLoaded(), continuation, sdk, policy -> {
                    Object answer = decideServer(policy, server, session, request, invocation, sdk);
                    return answer != null ? answer : invocation.run();
                });
            }
            return decideServer(holder.current(), server, session, request, invocation, sdk);
        } catch (Throwable t) {
            return onError(holder.current(), "Kotlin server tools/call", tool, t, sdk, null);
        }
    }

    private Object decideServer(PolicySnapshot policy, Object server, Object session, Object request, Invocation invocation,
            ClassLoader sdk) throws Throwable {
        String tool = KotlinObjects.toolName(request);
        Map<String, ?> schema = policy.needsInputSchema(Side.SERVER, null, tool) ? KotlinObjects.serverInputSchema(server, tool) : null;
        ToolCall call = new ToolCall(Side.SERVER, null, tool, KotlinObjects.arguments(request), KotlinObjects.sessionId(session),
                KotlinObjects.clientName(session), schema);
        Decided decided = decider.decide(policy, call, sdk, () -> false);
        Decision decision = decided.decision();
        if (decided.held() != null) {
            return awaitApproval(decided, invocation, sdk);
        }
        if (decision.effect() == Effect.ALLOW) {
            return null;
        }
        return decision.isHidden() ? KotlinObjects.toolNotFound(sdk, tool) : KotlinObjects.errorResult(sdk, decision.callerMessage(tool));
    }

    @Override
    public Object serverList(Object result, Object server) {
        try {
            if (!KotlinObjects.isToolList(result)) {
                return result;
            }
            PolicySnapshot policy = holder.isLoaded() ? holder.current() : holder.whenLoaded().get(LIST_WAIT_SECONDS, TimeUnit.SECONDS);
            return filter(policy, result, Side.SERVER, null);
        } catch (Throwable t) {
            return unfilterable("Kotlin server tools/list", result, t);
        }
    }

    @Override
    public Object clientCall(Object client, Object request, Object options, Object continuation, Object call) {
        if (Rerun.isRerun(request)) {
            return null;
        }
        ClassLoader sdk = client.getClass().getClassLoader();
        // callTool(request, options, continuation): the handle's own argument order
        Invocation invocation = new Invocation((MethodHandle) call, request, continuation, client, request, options, continuation);
        String tool = "?";
        try {
            tool = KotlinObjects.toolName(request);
            if (!holder.isLoaded()) {
                return suspendUntil(holder.whenLoaded(), continuation, sdk, policy -> {
                    Object answer = decideClient(policy, client, request, invocation, sdk);
                    return answer != null ? answer : invocation.run();
                });
            }
            return decideClient(holder.current(), client, request, invocation, sdk);
        } catch (Throwable t) {
            return onError(holder.current(), "Kotlin client tool call", tool, t, sdk, null);
        }
    }

    private Object decideClient(PolicySnapshot policy, Object client, Object request, Invocation invocation, ClassLoader sdk)
            throws Throwable {
        String tool = KotlinObjects.toolName(request);
        String server = policy.serverSection(KotlinObjects.serverName(client), null);
        Map<String, ?> schema = null;
        if (policy.needsInputSchema(Side.CLIENT, server, tool)) {
            Map<String, Object> tools = listed.get(client);
            schema = tools == null ? null : KotlinObjects.inputSchema(tools.get(tool));
        }
        ToolCall call = new ToolCall(Side.CLIENT, server, tool, KotlinObjects.arguments(request),
                "client-" + Integer.toHexString(System.identityHashCode(client)), KotlinObjects.ownName(client), schema);
        // the agent's own app is the MCP client here: approvals go to the admin channel
        Decided decided = decider.decide(policy, call, sdk, () -> false);
        if (decided.held() != null) {
            return awaitApproval(decided, invocation, sdk);
        }
        Decision decision = decided.decision();
        return decision.effect() == Effect.ALLOW ? null : KotlinObjects.errorResult(sdk, decision.callerMessage(tool));
    }

    @Override
    public Object clientListing(Object continuation, Object client) {
        try {
            return KotlinObjects.mapping(continuation, result -> clientList(result, client));
        } catch (Throwable t) {
            Diagnostics.adviceError("Kotlin client tools/list (wrapping its continuation)", t);
            return continuation;
        }
    }

    @Override
    public Object clientList(Object result, Object client) {
        try {
            if (!KotlinObjects.isToolList(result)) {
                // COROUTINE_SUSPENDED (the continuation gets the list), or a failure: as it is
                return result;
            }
            PolicySnapshot policy = holder.isLoaded() ? holder.current() : holder.whenLoaded().get(LIST_WAIT_SECONDS, TimeUnit.SECONDS);
            listed.put(client, KotlinObjects.tools(result));
            String name = KotlinObjects.serverName(client);
            sections.listed(policy, name, null, null);
            return filter(policy, result, Side.CLIENT, policy.serverSection(name, null));
        } catch (Throwable t) {
            return unfilterable("Kotlin client tools/list", result, t);
        }
    }

    /** A list without hidden and outright-denied tools, failing closed ({@link ListFilter}). */
    private static Object filter(PolicySnapshot policy, Object list, Side side, String server) {
        return ListFilter.listed(policy, list, side, server, "Kotlin " + side.word() + " tools/list", KotlinObjects::filterTools);
    }

    /** A list that could not be filtered at all: shown as it is with {@code on_error=allow}, else the list fails. */
    private Object unfilterable(String where, Object result, Throwable t) {
        Diagnostics.adviceError(where, t);
        if (result == null || holder.failOpen()) {
            return result;
        }
        throw new IllegalStateException("mcp-policy could not filter " + where + " and shows no tool (on_error=deny)", t);
    }

    /**
     * A held call: suspends until a person (or the timeout) decides, then runs the hooked method (approved) or
     * resumes with the §5 denial, on the coroutine's dispatcher. A call given up answers with a denial too: its
     * caller is suspended and must get an answer.
     */
    private Object awaitApproval(Decided decided, Invocation invocation, ClassLoader sdk) throws Throwable {
        return suspendUntil(decided.held().outcome(), invocation.continuation, sdk,
                outcome -> decider.answer(decided.held(), outcome, sdk, invocation::run,
                        text -> KotlinObjects.errorResult(sdk, text),
                        () -> KotlinObjects.errorResult(sdk, "Policy denied tool '" + decided.held().call().tool()
                                + "': the approval was given up")));
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
    private <T> Object suspendUntil(CompletableFuture<T> future, Object continuation, ClassLoader sdk, Then<T> then)
            throws ReflectiveOperationException {
        Object suspended = KotlinObjects.suspended(sdk);
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
                        answer = onError(holder.current(), "Kotlin tool call (after waiting)", "?", t, sdk, continuation);
                    }
                    if (answer != suspended) {
                        resume(continuation, answer, sdk);
                    }
                });
            } catch (Throwable t) {
                Diagnostics.adviceError("Kotlin tool call (resuming it)", t);
                resume(continuation, onError(holder.current(), "Kotlin tool call (resuming it)", "?", t, sdk, continuation), sdk);
            }
        });
        return suspended;
    }

    private static void resume(Object continuation, Object answer, ClassLoader sdk) {
        try {
            KotlinObjects.resumeWith(continuation, answer);
        } catch (Throwable t) {
            Diagnostics.adviceError("Kotlin tool call (resuming it)", t);
        }
    }

    /**
     * An agent fault: reported with an id, then denied (its result), or with {@code on_error=allow} run ({@code null} on
     * the first entry; after a wait, the hooked method cannot be run from here, so it is denied).
     */
    private Object onError(PolicySnapshot policy, String where, String tool, Throwable t, ClassLoader sdk, Object waited) {
        Decision decision = policy.internalError(where, tool, t);
        if (decision.effect() == Effect.ALLOW && waited == null) {
            return null;
        }
        try {
            return KotlinObjects.errorResult(sdk, decision.effect() == Effect.ALLOW
                    ? "Policy denied tool '" + tool + "': an internal error after waiting" : decision.callerMessage(tool));
        } catch (Throwable again) {
            Diagnostics.adviceError(where + " (delivering the denial)", "tool " + tool, again);
            throw new IllegalStateException("mcp-policy denied tool call '" + tool + "' and could not deliver the denial", t);
        }
    }


    /**
     * The hooked call itself, to run once it is decided: its handle and arguments (the receiver first), the request
     * being the one its hook lets through once.
     */
    private static final class Invocation {
        private final MethodHandle handle;
        private final Object request;
        private final Object continuation;
        private final Object[] arguments;

        Invocation(MethodHandle handle, Object request, Object continuation, Object... arguments) {
            this.handle = handle;
            this.request = request;
            this.continuation = continuation;
            this.arguments = arguments;
        }

        /** Runs the hooked method: its result, or {@code COROUTINE_SUSPENDED}. */
        Object run() throws Throwable {
            return Rerun.run(request, handle, arguments);
        }
    }
}
