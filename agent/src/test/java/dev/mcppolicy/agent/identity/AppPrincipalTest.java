package dev.mcppolicy.agent.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.engine.Caller;
import java.net.URI;
import java.security.Principal;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import dev.mcppolicy.agent.sdk.Results;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * {@link AppPrincipal} on classes shaped like what it reads (Spring Security and the servlet API are not on this
 * module's test class path): a servlet request's {@code getUserPrincipal()}, Spring's {@code Authentication} with its
 * authorities, and the resource server's {@code JwtAuthenticationToken} with its claims.
 */
class AppPrincipalTest {
    public static final class Authority {
        private final String authority;

        Authority(String authority) {
            this.authority = authority;
        }

        public String getAuthority() {
            return authority;
        }
    }

    /** Shaped like Spring's {@code JwtAuthenticationToken}. */
    public static final class JwtAuthentication implements Principal {
        private final boolean authenticated;

        JwtAuthentication(boolean authenticated) {
            this.authenticated = authenticated;
        }

        @Override
        public String getName() {
            return "alice@example.com";
        }

        public boolean isAuthenticated() {
            return authenticated;
        }

        public Collection<Authority> getAuthorities() {
            return List.of(new Authority("SCOPE_tools"), new Authority("ROLE_ops"));
        }

        public Map<String, Object> getTokenAttributes() {
            return Map.of("sub", "u-123", "iss", URI.create("https://idp.example.com/"), "exp", Instant.ofEpochSecond(2_000_000_000L),
                    "groups", List.of("ops"));
        }
    }

    public static final class ServletRequest {
        private final Principal principal;

        ServletRequest(Principal principal) {
            this.principal = principal;
        }

        public Principal getUserPrincipal() {
            return principal;
        }
    }

    public static final class Named implements Principal {
        @Override
        public String getName() {
            return "bob";
        }
    }

    public static final class FunctionalRequest {
        public Optional<Principal> principal() {
            return Optional.of(new Named());
        }
    }

    @Test
    void readsTheAppsAuthenticationItsAuthoritiesAndItsTokensClaimsAsPlainJson() {
        Caller caller = AppPrincipal.of(new ServletRequest(new JwtAuthentication(true)));
        assertThat(caller.verified()).isTrue();
        assertThat(caller.sub()).isEqualTo("u-123");
        assertThat(caller.name()).isEqualTo("alice@example.com");
        assertThat(caller.roles()).containsExactly("SCOPE_tools", "ROLE_ops");
        assertThat(caller.claims()).isEqualTo(Map.of("sub", "u-123", "iss", "https://idp.example.com/", "exp", 2_000_000_000L,
                "groups", List.of("ops")));
    }

    @Test
    void aPlainPrincipalIsItsNameAndNoPrincipalOrAnUnauthenticatedOneIsNoCaller() {
        Caller bob = AppPrincipal.of(new FunctionalRequest());
        assertThat(bob.sub()).isEqualTo("bob");
        assertThat(bob.roles()).isEmpty();
        assertThat(AppPrincipal.of(new ServletRequest(null))).isNull();
        assertThat(AppPrincipal.of(new ServletRequest(new JwtAuthentication(false)))).isNull();
        assertThat(AppPrincipal.of(new Object())).isNull();
        assertThat(AppPrincipal.of(null)).isNull();
    }

    /** Shaped like WebFlux's {@code ServerRequest}: its principal is what the subscriber's Reactor context holds, as with Spring Security. */
    public static final class ReactiveRequest {
        private final boolean secured;

        ReactiveRequest(boolean secured) {
            this.secured = secured;
        }

        public Mono<Principal> principal() {
            return secured ? Mono.deferContextual(context -> Mono.justOrEmpty(context.<Principal>getOrEmpty(Principal.class))) : Mono.empty();
        }
    }

    @Test
    void aWebFluxPrincipalIsReadInsideTheCallsOwnChainWhereTheSecurityContextIs() throws Exception {
        assertThat(AppPrincipal.deferred(new ReactiveRequest(false))).as("no security: WebFlux's Mono.empty, nothing to wait for").isNull();
        assertThat(AppPrincipal.deferred(new ServletRequest(null))).isNull();
        assertThat(AppPrincipal.deferred(new FunctionalRequest())).isNull();
        Object principal = AppPrincipal.deferred(new ReactiveRequest(true));
        assertThat(AppPrincipal.of(new ReactiveRequest(true))).as("never blocks on it").isNull();
        DeferredCaller deferred = new DeferredCaller(principal, CallerOutcome.NONE);

        Object decided = Results.monoAfterAnswer(principal, DeferredCaller.UNREADABLE, answered -> Mono.just(deferred.resolve(answered)));
        CallerOutcome alice = ((Mono<?>) decided).cast(CallerOutcome.class)
                .contextWrite(Context.of(Principal.class, new JwtAuthentication(true))).block();
        assertThat(alice.caller().sub()).isEqualTo("u-123");
        assertThat(alice.caller().roles()).containsExactly("SCOPE_tools", "ROLE_ops");
        assertThat(((Mono<?>) decided).block()).as("outside the request's chain: no one").isSameAs(CallerOutcome.NONE);

        Object failing = Results.monoAfterAnswer(Mono.error(new IllegalStateException("boom")), DeferredCaller.UNREADABLE,
                answered -> Mono.just(deferred.resolve(answered)));
        assertThat(((CallerOutcome) ((Mono<?>) failing).block()).isUnavailable()).as("on_error decides").isTrue();
    }
}
