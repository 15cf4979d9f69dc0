package dev.mcppolicy.agent.sdk;

import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.approval.PendingCall;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Server side: which held call answers which JSON-RPC request of which session, so that the client's
 * {@code notifications/cancelled} for that request, or the session closing, gives its approval up. No SDK
 * version acts on either for a call still waiting (0.10 to 2.1 log {@code notifications/cancelled} as a
 * notification without a handler, and a closed stdio session leaves its pending answers waiting).
 *
 * <p>The session's {@code handle(message)} is woven: a {@code tools/call} request's params, id and session
 * are noted on the thread that handles it, where the SDK subscribes to the request's answer and so reaches
 * the {@code tools/call} hook; a call held there is bound to them when its params are the same object.
 * A call that reaches the hook on another thread (one that arrived before the session was initialized)
 * is not bound, and is then given up only when the SDK cancels its answer.
 */
final class HeldRequests {
    private static final String TOOLS_CALL = "tools/call";
    private static final String CANCELLED = "notifications/cancelled";

    private record Arriving(Object params, Object session, Object id) {
    }

    /** A request of one session: the session by identity (its class has no equals), the id as JSON compares it. */
    private record Key(Object session, Object id) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && key.session == session && key.id.equals(id);
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(session) * 31 + id.hashCode();
        }
    }

    private static final ThreadLocal<Arriving> ARRIVING = new ThreadLocal<>();

    private final Approvals approvals;
    private final Map<Key, PendingCall> held = new ConcurrentHashMap<>();

    HeldRequests(Approvals approvals) {
        this.approvals = approvals;
    }

    /** {@code McpServerSession.handle(message)}, on entry. */
    void arriving(Object session, Object message) {
        ARRIVING.remove();
        String type = message == null ? "" : message.getClass().getSimpleName();
        if (type.equals("JSONRPCRequest") && TOOLS_CALL.equals(Reflection.call(message, "method"))) {
            Object id = Reflection.call(message, "id");
            Object params = Reflection.call(message, "params");
            if (id != null && params != null) {
                ARRIVING.set(new Arriving(params, session, id));
            }
        } else if (type.equals("JSONRPCNotification") && CANCELLED.equals(Reflection.call(message, "method"))
                && Reflection.call(message, "params") instanceof Map<?, ?> params && params.get("requestId") != null) {
            PendingCall call = held.get(new Key(session, idKey(params.get("requestId"))));
            if (call != null) {
                approvals.cancel(call.id(), "the client cancelled the request");
            }
        }
    }

    /** A server call was held: bind it to the request being handled on this thread, when {@code params} is that request's. */
    void bind(Object params, PendingCall call) {
        Arriving arriving = ARRIVING.get();
        if (arriving == null || arriving.params() != params) {
            return;
        }
        ARRIVING.remove();
        Key key = new Key(arriving.session(), idKey(arriving.id()));
        held.put(key, call);
        call.outcome().whenComplete((outcome, error) -> held.remove(key, call));
    }

    /** {@code McpServerSession.close()} or {@code closeGracefully()}: its held calls are given up. */
    void closed(Object session) {
        for (Map.Entry<Key, PendingCall> entry : held.entrySet()) {
            if (entry.getKey().session() == session) {
                approvals.cancel(entry.getValue().id(), "the client closed the session");
            }
        }
    }

    /** JSON compares ids by value: the integer 7 however it was read, and the string "7" apart from it. */
    private static Object idKey(Object id) {
        return id instanceof Number number && number.doubleValue() == number.longValue() ? (Object) number.longValue() : id.toString();
    }
}
