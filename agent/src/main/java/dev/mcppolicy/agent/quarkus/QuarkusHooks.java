package dev.mcppolicy.agent.quarkus;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.approval.Outcome;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.decide.CallDecider;
import dev.mcppolicy.agent.decide.CallDecider.Decided;
import dev.mcppolicy.agent.decide.Rerun;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.quarkus.QuarkusObjects.Api;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.lang.invoke.MethodHandle;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Policy for the Quarkus MCP server ({@code io.quarkiverse.mcp}), by the same decision path as the SDK's hooks
 * ({@link CallDecider}): one {@link PolicySnapshot} per call or list, one decision line per call.
 *
 * <p>The extension runs {@code ToolMessageHandler.toolsCall} on a Vert.x context (an event loop) and answers through
 * the request's {@code Sender}, so a denial is sent the way the extension sends a tool's error
 * ({@code ToolResponse.error(text)}, an {@code isError} result with the SPEC §5 text) and a hidden tool gets the
 * extension's own answer for a tool it does not have ({@code -32602 Invalid tool name: X}); the handler never runs.
 * A call that arrives while the policy is read, or that is held for approval, waits in a Vert.x {@code Future} on
 * the request's context, holding no thread, then runs the hooked method (through its own handle) or sends its
 * denial. The caller is the connection: {@code session} is its id, {@code client} the {@code clientInfo.name} of
 * its {@code initialize}. {@code tools/list} adds only the tools the policy lists to the page it builds.
 */
public final class QuarkusHooks implements PolicyBridge.QuarkusHooks {
    /** How long a {@code tools/list} waits for the first policy on the event loop before it shows no tool ({@code on_error=deny}). */
    private static final long LIST_WAIT_SECONDS = 5;

    private final PolicyHolder holder;
    private final CallDecider decider;

    public QuarkusHooks(PolicyHolder holder, DecisionLog log, Approvals approvals, boolean showArguments) {
        this.holder = holder;
        this.decider = new CallDecider(log, approvals, showArguments);
    }

    @Override
    public Object serverCall(Object handler, Object message, Object request, Object call) {
        if (Rerun.isRerun(message)) {
            // the call run by rerun() below, for a call already decided
            return null;
        }
        Api api;
        try {
            api = QuarkusObjects.api(handler);
        } catch (Throwable t) {
            return cannotAnswer(holder.isLoaded() ? holder.current() : holder.notYetLoaded(), t);
        }
        ClassLoader loader = handler.getClass().getClassLoader();
        if (holder.isLoaded()) {
            return serverCall(holder.current(), api, handler, message, request, call, loader);
        }
        try {
            return api.after(holder.whenLoaded(), policy -> {
                try {
                    Object answer = serverCall((PolicySnapshot) policy, api, handler, message, request, call, loader);
                    return answer != null ? answer : rerun((MethodHandle) call, handler, message, request);
                } catch (Throwable t) {
                    return onServerError((PolicySnapshot) policy, api, handler, message, request, call, "?", t, true);
                }
            });
        } catch (Throwable t) {
            return onServerError(holder.notYetLoaded(), api, handler, message, request, call, "?", t, false);
        }
    }

    private Object serverCall(PolicySnapshot policy, Api api, Object handler, Object message, Object request, Object call,
            ClassLoader loader) {
        String name = "?";
        Decision decision = null;
        try {
            Object params = api.params(message);
            String tool = api.string(params, "name");
            if (tool == null) {
                // no tool named: the extension answers the malformed request itself, and runs nothing
                return null;
            }
            name = tool;
            Map<String, ?> inputSchema = policy.needsInputSchema(Side.SERVER, null, name) ? QuarkusObjects.inputSchema(api, handler, name) : null;
            ToolCall toolCall = new ToolCall(Side.SERVER, null, name, api.arguments(params), QuarkusObjects.sessionId(request),
                    QuarkusObjects.clientName(request), inputSchema);
            // approval by elicitation is not built for this stack: such rules go to the admin channel
            Decided decided = decider.decide(policy, toolCall, loader, () -> false);
            decision = decided.decision();
            if (decided.held() != null) {
                return api.after(decided.held().outcome(), outcome -> {
                    try {
                        return decider.answer(decided.held(), (Outcome) outcome, loader,
                                () -> rerun((MethodHandle) call, handler, message, request),
                                text -> send(api, request, message, text), api::nothing);
                    } catch (Throwable t) {
                        throw undeliverable(tool, t);
                    }
                });
            }
            if (decision.effect() == Effect.ALLOW) {
                return null;
            }
            return decision.isHidden() ? api.sendUnknownTool(request, api.id(message), name) : send(api, request, message, decision.callerMessage(name));
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable(name, t);
            }
            return onServerError(policy, api, handler, message, request, call, name, t, false);
        }
    }

    private static Object send(Api api, Object request, Object message, String text) throws Throwable {
        return api.sendDenied(request, api.id(message), text);
    }

    /** Runs the hooked {@code toolsCall} of a call decided later; the hook it re-enters lets it through once. */
    private static Object rerun(MethodHandle call, Object handler, Object message, Object request) throws Throwable {
        return Rerun.run(message, call, handler, message, request);
    }

    @Override
    public Object serverListed(Object tools, Object tool) {
        Api api = null;
        try {
            api = QuarkusObjects.api(tools == null ? tool : tools);
            // on the event loop: a list asked for before the policy is read (it is read while Quarkus starts) waits a little
            PolicySnapshot policy = holder.isLoaded() ? holder.current() : holder.whenLoaded().get(LIST_WAIT_SECONDS, TimeUnit.SECONDS);
            String name = api.string(tool, "name");
            return name != null && policy.isListed(Side.SERVER, null, name) ? api.add(tools, tool) : tools;
        } catch (Throwable t) {
            Diagnostics.adviceError("Quarkus server tools/list filter", t);
            if (holder.failOpen() && api != null) {
                try {
                    return api.add(tools, tool);
                } catch (Throwable again) {
                    Diagnostics.adviceError("Quarkus server tools/list (listing the tool)", again);
                }
            }
            // on_error=deny: a tool that cannot be judged is not shown
            return tools;
        }
    }

    /**
     * An agent fault: reported with an id, then denied (or, with {@code on_error=allow}, run: at once, or through the
     * hooked method's handle when the call was {@code later} than its hook).
     */
    private static Object onServerError(PolicySnapshot policy, Api api, Object handler, Object message, Object request, Object call,
            String tool, Throwable t, boolean later) {
        Decision decision = policy.internalError("Quarkus server tools/call", tool, t);
        try {
            if (decision.effect() == Effect.ALLOW) {
                return later ? rerun((MethodHandle) call, handler, message, request) : null;
            }
            return send(api, request, message, decision.callerMessage(tool));
        } catch (Throwable again) {
            throw undeliverable(tool, again);
        }
    }

    /** The extension's API could not even be read: with {@code on_error=deny} the call fails, so its handler never runs. */
    private static Object cannotAnswer(PolicySnapshot policy, Throwable t) {
        Decision decision = policy.internalError("Quarkus server tools/call", "?", t);
        if (decision.effect() == Effect.ALLOW) {
            return null;
        }
        throw undeliverable("?", t);
    }

    private static IllegalStateException undeliverable(String tool, Throwable t) {
        Diagnostics.adviceError("Quarkus server tools/call (delivering the denial)", "tool " + tool, t);
        return new IllegalStateException("mcp-policy denied tool call '" + tool + "' and could not deliver the denial", t);
    }
}
