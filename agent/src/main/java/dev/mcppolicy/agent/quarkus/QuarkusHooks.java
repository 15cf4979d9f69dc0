package dev.mcppolicy.agent.quarkus;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.approval.Outcome;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.decide.CallDecider;
import dev.mcppolicy.agent.decide.CallDecider.Decided;
import dev.mcppolicy.agent.decide.Judged;
import dev.mcppolicy.agent.decide.Rerun;
import dev.mcppolicy.agent.identity.CallerOutcome;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.quarkus.QuarkusObjects.Api;
import dev.mcppolicy.agent.sdk.Answers;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.lang.invoke.MethodHandle;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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
 * its {@code initialize}; and who is calling (issue 32) is the request's Quarkus {@code SecurityIdentity}, as the
 * extension's {@code SecuritySupport} holds it ({@link QuarkusIdentity}): one that cannot be read sends the call to
 * {@code on_error}. {@code tools/list} adds only the tools the policy lists to the page it builds.
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
        return serverAsk(Kind.TOOL, handler, message, request, call);
    }

    @Override
    public Object serverAsk(String kindWord, Object handler, Object message, Object request, Object call) {
        return serverAsk(Kind.RESOURCE.word().equals(kindWord) ? Kind.RESOURCE : Kind.PROMPT, handler, message, request, call);
    }

    private Object serverAsk(Kind kind, Object handler, Object message, Object request, Object call) {
        if (Rerun.isRerun(message)) {
            // the call run by rerun() below, for a call already decided
            return null;
        }
        Api api;
        try {
            api = QuarkusObjects.api(handler);
        } catch (Throwable t) {
            return cannotAnswer(holder.isLoaded() ? holder.current() : holder.notYetLoaded(), kind, t);
        }
        ClassLoader loader = handler.getClass().getClassLoader();
        if (holder.isLoaded()) {
            return serverAsk(holder.current(), kind, api, handler, message, request, call, loader);
        }
        try {
            return api.after(holder.whenLoaded(), policy -> {
                try {
                    Object answer = serverAsk((PolicySnapshot) policy, kind, api, handler, message, request, call, loader);
                    return answer != null ? answer : rerun((MethodHandle) call, handler, message, request);
                } catch (Throwable t) {
                    return onServerError((PolicySnapshot) policy, kind, api, handler, message, request, call, "?", t, true);
                }
            });
        } catch (Throwable t) {
            return onServerError(holder.notYetLoaded(), kind, api, handler, message, request, call, "?", t, false);
        }
    }

    /**
     * Decides a call by {@code policy} once its caller is known (issue 32, {@link QuarkusIdentity}): at once, or, when
     * the request's identity is still being established (lazy authentication), in a Vert.x {@code Future} on the
     * request's context once it is, as a call that arrives before the policy is read.
     */
    private Object serverAsk(PolicySnapshot policy, Kind kind, Api api, Object handler, Object message, Object request, Object call,
            ClassLoader loader) {
        Object found = QuarkusIdentity.found(request);
        if (!(found instanceof CompletionStage<?> pending)) {
            return serverAsk(policy, kind, api, handler, message, request, call, loader, found);
        }
        try {
            return api.after(pending, caller -> {
                try {
                    Object answer = serverAsk(policy, kind, api, handler, message, request, call, loader, caller);
                    return answer != null ? answer : rerun((MethodHandle) call, handler, message, request);
                } catch (Throwable t) {
                    return onServerError(policy, kind, api, handler, message, request, call, "?", t, true);
                }
            });
        } catch (Throwable t) {
            return onServerError(policy, kind, api, handler, message, request, call, "?", t, false);
        }
    }

    private Object serverAsk(PolicySnapshot policy, Kind kind, Api api, Object handler, Object message, Object request, Object call,
            ClassLoader loader, Object found) {
        String name = "?";
        Decision decision = null;
        try {
            Object params = api.params(message);
            String named = params == null ? null : api.string(params, kind == Kind.RESOURCE ? "uri" : "name");
            if (named == null) {
                // nothing named: the extension answers the malformed request itself, and runs nothing
                return null;
            }
            name = named;
            String session = QuarkusObjects.sessionId(request);
            String client = QuarkusObjects.clientName(request);
            ToolCall asked;
            if (kind == Kind.TOOL) {
                Map<String, ?> inputSchema = policy.needsInputSchema(Side.SERVER, null, name) ? QuarkusObjects.inputSchema(api, handler, name) : null;
                asked = new ToolCall(Side.SERVER, null, name, api.arguments(params), session, client, inputSchema);
            } else {
                asked = kind == Kind.RESOURCE ? ToolCall.resource(Side.SERVER, null, name, session, client)
                        : ToolCall.prompt(Side.SERVER, null, name, api.arguments(params), session, client);
            }
            // who is calling: a caller whose identity could not be read throws here, and the call goes to on_error
            ToolCall toolCall = asked.withCaller(CallerOutcome.callerOf(found));
            // approval by elicitation is not built for this stack: such rules go to the admin channel
            Decided decided = decider.decide(policy, toolCall, loader, () -> false, true);
            decision = decided.decision();
            if (decided.held() != null) {
                return api.after(decided.held().outcome(), outcome -> {
                    try {
                        return decider.answer(decided.held(), (Outcome) outcome, loader,
                                () -> judging(decider.judgedAfterApproval(policy, toolCall, loader), kind, named, call, handler, message, request),
                                text -> denied(api, kind, request, message, text), api::nothing);
                    } catch (Throwable t) {
                        throw undeliverable(kind, named, t);
                    }
                });
            }
            if (decided.judged() != null) {
                return judging(decided.judged(), kind, name, call, handler, message, request);
            }
            if (decision.effect() == Effect.ALLOW) {
                return null;
            }
            if (decision.isHidden()) {
                Object id = api.id(message);
                return kind == Kind.TOOL ? api.sendUnknownTool(request, id, name)
                        : kind == Kind.RESOURCE ? api.sendError(request, id, RESOURCE_NOT_FOUND, "Resource not found: " + name)
                        : api.sendError(request, id, QuarkusObjects.INVALID_PARAMS, "Invalid prompt name: " + name);
            }
            return denied(api, kind, request, message, decision.callerMessage(kind, name));
        } catch (Throwable t) {
            if (decision != null && decision.effect() != Effect.ALLOW) {
                throw undeliverable(kind, name, t);
            }
            return onServerError(policy, kind, api, handler, message, request, call, name, t, false);
        }
    }

    /** MCP's "Resource not found": what the extension answers for a URI it does not have, and so for a hidden one. */
    private static final int RESOURCE_NOT_FOUND = -32002;

    /** A denial: a tool's {@code isError} result, a resource's or prompt's JSON-RPC error (-32602), with the §5 text. */
    private static Object denied(Api api, Kind kind, Object request, Object message, String text) throws Throwable {
        return kind == Kind.TOOL ? send(api, request, message, text) : api.sendError(request, api.id(message), QuarkusObjects.INVALID_PARAMS, text);
    }

    /**
     * Runs the hooked handler method for a call whose answer its rule judges (SPEC §13): under a mark this thread's
     * {@code FeatureManagerBase.execute} of the same feature takes ({@link #serverAnswer}), so the answer's
     * {@code Future} is judged before the handler sends it. A handler that never reached {@code execute} (an unknown
     * feature) leaves the mark: the call is then logged as it was decided.
     */
    private static Object judging(Judged judged, Kind kind, String name, Object call, Object handler, Object message, Object request)
            throws Throwable {
        if (judged == null) {
            return rerun((MethodHandle) call, handler, message, request);
        }
        Mark mark = new Mark(judged, kind, name);
        MARKS.incrementAndGet();
        JUDGING.set(mark);
        try {
            return rerun((MethodHandle) call, handler, message, request);
        } finally {
            JUDGING.remove();
            MARKS.decrementAndGet();
            if (!mark.taken) {
                judged.finish();
            }
        }
    }

    /** A call whose answer is to be judged, while its handler runs on this thread. */
    private static final class Mark {
        final Judged judged;
        final Kind kind;
        final String name;
        boolean taken;

        Mark(Judged judged, Kind kind, String name) {
            this.judged = judged;
            this.kind = kind;
            this.name = name;
        }
    }

    private static final ThreadLocal<Mark> JUDGING = new ThreadLocal<>();
    /** How many marks are set in the JVM: {@link #serverAnswer} pays one read of it when none is. */
    private static final AtomicInteger MARKS = new AtomicInteger();

    @Override
    public Object serverAnswer(Object answer, Object manager, Object id) {
        if (MARKS.get() == 0 || answer == null) {
            return answer;
        }
        Mark mark = JUDGING.get();
        if (mark == null || mark.taken || !mark.name.equals(id) || !managerOf(mark.kind, manager)) {
            return answer;
        }
        mark.taken = true;
        Judged judged = mark.judged;
        try {
            Api api = QuarkusObjects.api(manager);
            return api.compose(answer, value -> {
                try {
                    if (value == null) {
                        // no resource at that URI: the extension answers it as not found
                        judged.finish();
                        return api.succeeded(null);
                    }
                    return api.succeeded(judged.answer(value, Answers::read, Answers::rebuild, text -> {
                        if (mark.kind == Kind.TOOL) {
                            return api.toolError(text);
                        }
                        throw new Refused(api.mcpException(text, QuarkusObjects.INVALID_PARAMS));
                    }));
                } catch (Refused refused) {
                    return failed(api, refused.error);
                } catch (Throwable t) {
                    return failed(api, t);
                }
            }, failure -> {
                judged.finish();
                return failed(api, (Throwable) failure);
            });
        } catch (Throwable t) {
            // the answer could not be wrapped: it is not sent unjudged (fail closed)
            Diagnostics.adviceError("Quarkus server " + mark.kind.word() + " answer (judging it)", t);
            judged.finish();
            throw new IllegalStateException("mcp-policy could not judge the answer of " + mark.kind.word() + " '" + mark.name + "'", t);
        }
    }

    private static Object failed(Api api, Throwable error) {
        try {
            return api.failed(error);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Whether {@code manager} is the extension's manager of {@code kind} (its tools, prompts, resources or templates). */
    private static boolean managerOf(Kind kind, Object manager) {
        String type = manager.getClass().getSimpleName();
        return kind == Kind.TOOL ? type.startsWith("Tool") : kind == Kind.PROMPT ? type.startsWith("Prompt") : type.startsWith("Resource");
    }

    /** A result rule's denial of a read or get: the extension's {@code McpException}, failing the answer's {@code Future}. */
    private static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final RuntimeException error;

        Refused(RuntimeException error) {
            super(null, null, false, false);
            this.error = error;
        }
    }

    @Override
    public Object serverListedAs(String kindWord, String key, Object items, Object item) {
        Kind kind = Kind.RESOURCE.word().equals(kindWord) ? Kind.RESOURCE : Kind.PROMPT;
        Api api = null;
        try {
            api = QuarkusObjects.api(items == null ? item : items);
            PolicySnapshot policy = holder.isLoaded() ? holder.current() : holder.whenLoaded().get(LIST_WAIT_SECONDS, TimeUnit.SECONDS);
            String name = api.string(item, key);
            return name != null && policy.isListed(kind, Side.SERVER, null, name) ? api.add(items, item) : items;
        } catch (Throwable t) {
            Diagnostics.adviceError("Quarkus server " + kindWord + " list filter", t);
            if (holder.failOpen() && api != null) {
                try {
                    return api.add(items, item);
                } catch (Throwable again) {
                    Diagnostics.adviceError("Quarkus server " + kindWord + " list (listing it)", again);
                }
            }
            return items;
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
    private static Object onServerError(PolicySnapshot policy, Kind kind, Api api, Object handler, Object message, Object request,
            Object call, String name, Throwable t, boolean later) {
        Decision decision = policy.internalError("Quarkus server " + kind.word(), name, t);
        try {
            if (decision.effect() == Effect.ALLOW) {
                return later ? rerun((MethodHandle) call, handler, message, request) : null;
            }
            return denied(api, kind, request, message, decision.callerMessage(kind, name));
        } catch (Throwable again) {
            throw undeliverable(kind, name, again);
        }
    }

    /** The extension's API could not even be read: with {@code on_error=deny} the call fails, so its handler never runs. */
    private static Object cannotAnswer(PolicySnapshot policy, Kind kind, Throwable t) {
        Decision decision = policy.internalError("Quarkus server " + kind.word(), "?", t);
        if (decision.effect() == Effect.ALLOW) {
            return null;
        }
        throw undeliverable(kind, "?", t);
    }

    private static IllegalStateException undeliverable(Kind kind, String name, Throwable t) {
        Diagnostics.adviceError("Quarkus server " + kind.word() + " (delivering the denial)", kind.word() + " " + name, t);
        return new IllegalStateException("mcp-policy denied " + kind.word() + " '" + name + "' and could not deliver the denial", t);
    }
}
