package dev.mcppolicy.engine.internal;

import dev.mcppolicy.engine.Caller;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Scope;
import dev.mcppolicy.ratelimit.RateLimitStore;

/**
 * The key each limit of a call counts under, computed by the engine so that every store counts the
 * same calls together: {@link RateLimitStore#GLOBAL_KEY} for a {@code global} limit, the session id for
 * a {@code session} limit, the client id for a {@code client} limit, and {@link #ANONYMOUS} (one shared
 * budget) for a call that has no such id; the verified caller's subject for a {@code user} limit, and
 * {@link #NO_USER} for a call without one.
 */
final class CounterKeys {
    /** The key of a call that carries no identity for a {@code session} or {@code client} limit: one shared bucket. */
    static final String ANONYMOUS = "";
    static final int MAX_KEY_LENGTH = 256;
    /** Marks a hashed key; no id is likely to start with NUL, and matching one would take the long id's SHA-256 preimage. */
    private static final String LONG_KEY_PREFIX = "\u0000sha256:";

    private CounterKeys() {
    }

    /** The key of one limit for {@code call}. */
    static String of(Scope scope, ToolCall call) {
        if (scope == Scope.GLOBAL) {
            return RateLimitStore.GLOBAL_KEY;
        }
        if (scope == Scope.USER) {
            return user(call);
        }
        return identity(scope == Scope.SESSION ? call.sessionId() : call.clientId());
    }

    /** The key of every call without a verified caller under a {@code user} limit: one shared budget. */
    static final String NO_USER = "(none)";

    /** A {@code user} limit's key: the verified caller's subject, or {@link #NO_USER}. */
    static String user(ToolCall call) {
        Caller caller = call.caller();
        return caller.verified() && caller.sub() != null ? identity(caller.sub()) : NO_USER;
    }

    /** The keys of {@code limits} for {@code call}, in their order; each scope's key is computed once. */
    static String[] of(Limit[] limits, ToolCall call) {
        String[] keys = new String[limits.length];
        String session = null;
        String client = null;
        for (int i = 0; i < limits.length; i++) {
            Scope scope = limits[i].scope();
            if (scope == Scope.GLOBAL) {
                keys[i] = RateLimitStore.GLOBAL_KEY;
            } else if (scope == Scope.SESSION) {
                keys[i] = session != null ? session : (session = identity(call.sessionId()));
            } else if (scope == Scope.USER) {
                keys[i] = user(call);
            } else {
                keys[i] = client != null ? client : (client = identity(call.clientId()));
            }
        }
        return keys;
    }

    /**
     * A session or client id as a key. One longer than {@value #MAX_KEY_LENGTH} chars (a self-declared
     * client name can be anything) is counted under its SHA-256 instead, so that a store's bounded number
     * of keys also bounds their memory.
     */
    static String identity(String id) {
        if (id == null) {
            return ANONYMOUS;
        }
        return id.length() <= MAX_KEY_LENGTH ? id : LONG_KEY_PREFIX + CanonicalJson.sha256Hex(chars(id));
    }

    /** Every UTF-16 unit as two bytes: unlike a charset encoder, it keeps lone surrogates apart. */
    private static byte[] chars(String text) {
        byte[] bytes = new byte[text.length() * 2];
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            bytes[2 * i] = (byte) (c >> 8);
            bytes[2 * i + 1] = (byte) c;
        }
        return bytes;
    }
}
