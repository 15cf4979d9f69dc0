package dev.mcppolicy.agent.identity;

import dev.mcppolicy.engine.Caller;

/**
 * A caller the app verified but answers only inside the request's Reactor chain (issue 32): Spring WebFlux's
 * {@code ServerRequest.principal()}, a {@code Mono} that Spring Security fills from {@code ReactiveSecurityContextHolder},
 * which is in the subscriber's context and nowhere else. The hooks subscribe to {@code principal} as part of the call's
 * own {@code Mono} (so it sees that context), then decide by {@link #resolve}; {@code otherwise} is what the request's
 * Bearer token made of the caller (or {@link CallerOutcome#NONE}), for a request the app left anonymous.
 */
public record DeferredCaller(Object principal, CallerOutcome otherwise) {
    /** What a principal {@code Mono} that failed is answered with: the call is then decided by {@code on_error}. */
    public static final Object UNREADABLE = new Object();

    /** The caller once {@code principal} answered: its principal ({@code null} when it answered none). */
    public CallerOutcome resolve(Object answered) {
        if (answered == UNREADABLE) {
            return CallerOutcome.unavailable("the app's principal could not be read");
        }
        Caller app = answered == null ? null : AppPrincipal.caller(answered);
        return app != null ? CallerOutcome.of(app) : otherwise;
    }
}
