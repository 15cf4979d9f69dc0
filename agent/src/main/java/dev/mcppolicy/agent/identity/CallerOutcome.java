package dev.mcppolicy.agent.identity;

import dev.mcppolicy.engine.Caller;

/**
 * Who a request's caller is, as the transport's edge found it (issue 32): a {@link Caller} (verified, or
 * {@link Caller#unverified()}), why a token was not taken ({@code rejected}, for the agent's diagnostics), or why it
 * could not be checked at all ({@code unavailable}: the key set did not answer; the call is then decided by
 * {@code on_error}). Kept in the request's transport context and read when its calls are decided.
 */
public record CallerOutcome(Caller caller, String rejected, String unavailable) {
    /** Nothing to go by: no principal, no token (or no key source for one). */
    public static final CallerOutcome NONE = new CallerOutcome(Caller.unverified(), null, null);

    public static CallerOutcome of(Caller caller) {
        return new CallerOutcome(caller, null, null);
    }

    public static CallerOutcome rejected(String why) {
        return new CallerOutcome(Caller.unverified(), why, null);
    }

    public static CallerOutcome unavailable(String why) {
        return new CallerOutcome(Caller.unverified(), null, why);
    }

    public boolean isUnavailable() {
        return unavailable != null;
    }

    /**
     * The caller {@code found} names ({@link Caller#unverified()} for anything but a {@code CallerOutcome}); throws when it
     * could not be verified (a key set that did not answer, a principal that failed): the call is then decided by
     * {@code on_error}, never let through as someone.
     */
    public static Caller callerOf(Object found) {
        if (!(found instanceof CallerOutcome outcome)) {
            return Caller.unverified();
        }
        if (outcome.isUnavailable()) {
            throw new IllegalStateException("the caller could not be verified: " + outcome.unavailable());
        }
        return outcome.caller();
    }
}
