package dev.mcppolicy.agent.sdk;

import static dev.mcppolicy.agent.sdk.Reflection.asString;
import static dev.mcppolicy.agent.sdk.Reflection.call;
import static dev.mcppolicy.agent.sdk.Reflection.find;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.approval.ApprovalPrompt;
import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.approval.PendingCall;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@code approval.via: elicitation} channel: asks a held server call's own MCP client, through the call's
 * {@code McpAsyncServerExchange.createElicitation} (proven on SDK 0.14.0 and 2.1.0; 0.10 has none), whether it may run. The call is held on the
 * admin channel as well, so whichever answers first decides it; the rule's timeout still ends the wait.
 *
 * <p>A client that did not declare the {@code elicitation} capability at initialize, a stateless server (no
 * session to ask), or an SDK without elicitation leaves the call to the admin channel alone: said once per
 * session on stderr. Nothing here waits on a thread: the request is sent when the SDK subscribes to the held
 * call's answer, and its reply is applied on the thread that delivers it.
 */
public final class ElicitationChannel {
    /** How many sessions are remembered as told that their calls go to the admin channel. */
    private static final int REMEMBERED_SESSIONS = 1_000;

    private final Approvals approvals;
    private final Map<String, Boolean> toldFallback = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED_SESSIONS;
        }
    };

    public ElicitationChannel(Approvals approvals) {
        this.approvals = approvals;
    }

    /**
     * Whether the client behind a server call's {@code exchangeOrContext} can be asked; when it cannot, says why
     * once for its session.
     */
    public boolean canAsk(Object exchangeOrContext, String sessionId) {
        String whyNot;
        try {
            whyNot = whyNot(exchangeOrContext);
        } catch (RuntimeException | LinkageError e) {
            whyNot = "its capabilities could not be read (" + e + ")";
        }
        if (whyNot == null) {
            return true;
        }
        String session = sessionId == null ? "(no session)" : sessionId;
        boolean first;
        synchronized (toldFallback) {
            first = toldFallback.put(session, Boolean.TRUE) == null;
        }
        if (first) {
            Diagnostics.info("approval via elicitation: session " + session + ": " + whyNot
                    + "; its held calls are asked on the admin channel alone");
        }
        return false;
    }

    /** Why the client cannot be asked, or {@code null} when it can. */
    static String whyNot(Object exchangeOrContext) {
        if (!Identity.isExchange(exchangeOrContext)) {
            return "a stateless server has no session to ask through";
        }
        if (createElicitation(exchangeOrContext) == null) {
            return "this MCP SDK has no elicitation (no McpAsyncServerExchange.createElicitation)";
        }
        Object capabilities = call(exchangeOrContext, "getClientCapabilities");
        if (capabilities == null) {
            return "the client has not initialized";
        }
        if (find(capabilities.getClass(), "elicitation") == null || call(capabilities, "elicitation") == null) {
            Object info = call(exchangeOrContext, "getClientInfo");
            String name = info == null ? null : asString(call(info, "name"));
            return "the client" + (name == null ? "" : " '" + name + "'") + " did not declare the elicitation capability";
        }
        return null;
    }

    /**
     * Sends {@code elicitation/create} for {@code held} to its client and applies the reply: {@code accept} with
     * {@code approve: true} approves, anything else denies, as the client's {@code clientInfo.name} (or
     * {@code elicitation}). A reply after the call was decided is ignored; an error leaves the call to the admin
     * channel. Once the call is decided, however, the request is given up.
     */
    public void ask(PendingCall held, Object exchange) {
        try {
            Method create = createElicitation(exchange);
            Object request = request(create.getParameterTypes()[0], ApprovalPrompt.message(held), ApprovalPrompt.requestedSchema());
            String approver = approverOf(exchange);
            Object reply = create.invoke(exchange, request);
            ClassLoader reactor = reply.getClass().getClassLoader();
            Consumer<Object> onReply = result -> apply(held, approver, result);
            Consumer<Throwable> onError = error -> Diagnostics.info("approval " + held.id() + " via elicitation: the client gave"
                    + " no answer (" + error + "); the call waits for the admin channel");
            Method subscribe = Class.forName("reactor.core.publisher.Mono", false, reactor)
                    .getMethod("subscribe", Consumer.class, Consumer.class);
            Object subscription = subscribe.invoke(reply, onReply, onError);
            Method dispose = Class.forName("reactor.core.Disposable", false, reactor).getMethod("dispose");
            held.outcome().whenComplete((outcome, error) -> {
                try {
                    dispose.invoke(subscription);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    Diagnostics.debug("approval " + held.id() + ": the elicitation request could not be given up (" + e + ")");
                }
            });
        } catch (Throwable t) {
            // the call stays held on the admin channel: nothing runs without an approval
            Diagnostics.adviceError("approval via elicitation (asking the client)", "approval " + held.id(), t);
        }
    }

    private void apply(PendingCall held, String approver, Object result) {
        try {
            Object action = call(result, "action");
            Object content = call(result, "content");
            ApprovalPrompt.Answer answer = ApprovalPrompt.answer(action instanceof Enum<?> word ? word.name() : asString(action),
                    content instanceof Map<?, ?> map ? map : null);
            Approvals.Answer done = answer.approved()
                    ? approvals.approve(held.id(), approver, answer.reason(), Approvals.ELICITATION)
                    : approvals.deny(held.id(), approver, answer.reason(), Approvals.ELICITATION);
            if (done != Approvals.Answer.DECIDED) {
                Diagnostics.info("approval " + held.id() + ": the client's answer came after the call was decided; ignored");
            }
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.adviceError("approval via elicitation (reading the client's answer)", "approval " + held.id(), e);
        }
    }

    /** {@code createElicitation(ElicitRequest)}, or {@code null} for an SDK without it. */
    private static Method createElicitation(Object exchange) {
        for (Method method : exchange.getClass().getMethods()) {
            if (method.getName().equals("createElicitation") && method.getParameterCount() == 1) {
                return method;
            }
        }
        return null;
    }

    /**
     * {@code ElicitRequest.builder().message(m).requestedSchema(s).build()}: a record's builder up to 1.x, the form
     * request's builder from the interface's static {@code builder()} in 2.x.
     */
    private static Object request(Class<?> requestType, String message, Map<String, Object> schema) throws ReflectiveOperationException {
        Object builder = requestType.getMethod("builder").invoke(null);
        builder = builder.getClass().getMethod("message", String.class).invoke(builder, message);
        builder = builder.getClass().getMethod("requestedSchema", Map.class).invoke(builder, schema);
        return builder.getClass().getMethod("build").invoke(builder);
    }

    private static String approverOf(Object exchange) {
        Object info = call(exchange, "getClientInfo");
        String name = info == null ? null : asString(call(info, "name"));
        return name == null || name.isBlank() ? Approvals.ELICITATION : name;
    }
}
