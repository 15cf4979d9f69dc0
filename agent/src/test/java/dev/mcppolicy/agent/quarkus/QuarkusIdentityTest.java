package dev.mcppolicy.agent.quarkus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcppolicy.agent.identity.CallerOutcome;
import dev.mcppolicy.engine.Caller;
import java.math.BigDecimal;
import java.security.Principal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link QuarkusIdentity} on classes shaped like what it reads (Quarkus is not on this module's test class path): the
 * Quarkus MCP server's {@code McpRequest} and its {@code SecuritySupport}, which sets the HTTP request's identity on the
 * {@code CurrentIdentityAssociation} it is given (a {@code SecurityIdentity}, or a Mutiny {@code Uni} of one under lazy
 * authentication); a {@code SecurityIdentity} with its roles; SmallRye JWT's {@code JsonWebToken} principal, whose
 * custom claims are {@code jakarta.json} values and whose claim names include the token itself ({@code raw_token}).
 */
class QuarkusIdentityTest {
    // --- jakarta.json, by shape: what QuarkusIdentity knows a JSON value by is its getValueType() answering a JsonValue.ValueType

    public interface JsonValue {
        enum ValueType { ARRAY, OBJECT, STRING, NUMBER, TRUE, FALSE, NULL }

        ValueType getValueType();

        JsonValue TRUE = new JsonLiteral(ValueType.TRUE);
        JsonValue FALSE = new JsonLiteral(ValueType.FALSE);
        JsonValue NULL = new JsonLiteral(ValueType.NULL);
    }

    public static final class JsonLiteral implements JsonValue {
        private final ValueType type;

        JsonLiteral(ValueType type) {
            this.type = type;
        }

        @Override
        public ValueType getValueType() {
            return type;
        }
    }

    public static final class JsonString implements JsonValue {
        private final String text;

        JsonString(String text) {
            this.text = text;
        }

        @Override
        public ValueType getValueType() {
            return ValueType.STRING;
        }

        public String getString() {
            return text;
        }
    }

    public static final class JsonNumber implements JsonValue {
        private final BigDecimal number;

        JsonNumber(String number) {
            this.number = new BigDecimal(number);
        }

        @Override
        public ValueType getValueType() {
            return ValueType.NUMBER;
        }

        public BigDecimal bigDecimalValue() {
            return number;
        }
    }

    public static final class JsonArray extends ArrayList<JsonValue> implements JsonValue {
        private static final long serialVersionUID = 1L;

        JsonArray(JsonValue... items) {
            super(List.of(items));
        }

        @Override
        public ValueType getValueType() {
            return ValueType.ARRAY;
        }
    }

    public static final class JsonObject extends LinkedHashMap<String, JsonValue> implements JsonValue {
        private static final long serialVersionUID = 1L;

        JsonObject(Map<String, JsonValue> members) {
            super(members);
        }

        @Override
        public ValueType getValueType() {
            return ValueType.OBJECT;
        }
    }

    // --- Quarkus Security and the extension, by shape

    /** Shaped like SmallRye JWT's {@code DefaultJWTCallerPrincipal} (a MicroProfile {@code JsonWebToken}). */
    public static final class JwtPrincipal implements Principal {
        private final Map<String, Object> claims = new LinkedHashMap<>();

        JwtPrincipal() {
            claims.put("iss", "https://idp.example.com/");
            claims.put("sub", "u-123");
            claims.put("upn", "alice@example.com");
            claims.put("exp", 2_000_000_000L);
            claims.put("aud", new LinkedHashSet<>(List.of("mcp-tools")));
            claims.put("groups", new LinkedHashSet<>(List.of("ops")));
            claims.put("org", new JsonObject(Map.of("department", new JsonString("finance"))));
            claims.put("clearance", new JsonNumber("3"));
            claims.put("ratio", new JsonNumber("0.5"));
            claims.put("whole", new JsonNumber("2.000"));
            claims.put("admin", JsonValue.FALSE);
            claims.put("mfa", JsonValue.TRUE);
            claims.put("nothing", JsonValue.NULL);
            claims.put("amr", new JsonArray(new JsonString("pwd"), new JsonString("otp")));
        }

        @Override
        public String getName() {
            return "alice@example.com";
        }

        public String getSubject() {
            return "u-123";
        }

        public Set<String> getClaimNames() {
            Set<String> names = new LinkedHashSet<>(claims.keySet());
            names.add("raw_token");
            return names;
        }

        @SuppressWarnings("unchecked")
        public <T> T getClaim(String name) {
            return (T) ("raw_token".equals(name) ? "eyJhbGciOiJSUzI1NiJ9.the.token" : claims.get(name));
        }
    }

    public static final class Named implements Principal {
        @Override
        public String getName() {
            return "bob";
        }
    }

    public static final class SecurityIdentity {
        private final Principal principal;
        private final boolean anonymous;
        private final Set<String> roles;

        SecurityIdentity(Principal principal, boolean anonymous, Set<String> roles) {
            this.principal = principal;
            this.anonymous = anonymous;
            this.roles = roles;
        }

        public Principal getPrincipal() {
            return principal;
        }

        public boolean isAnonymous() {
            return anonymous;
        }

        public Set<String> getRoles() {
            return roles;
        }
    }

    /** Shaped like Mutiny's {@code Uni}: what the agent calls of it is {@code subscribeAsCompletionStage()}. */
    public interface Uni<T> {
        CompletableFuture<T> subscribeAsCompletionStage();
    }

    public interface CurrentIdentityAssociation {
        void setIdentity(SecurityIdentity identity);

        void setIdentity(Uni<SecurityIdentity> identity);

        SecurityIdentity getIdentity();

        Uni<SecurityIdentity> getDeferredIdentity();
    }

    public interface SecuritySupport {
        void setCurrentIdentity(CurrentIdentityAssociation association);
    }

    /** Shaped like the extension's {@code McpRequestImpl}: its HTTP transports give it a {@code SecuritySupport}, stdio none. */
    public static final class McpRequest {
        private final SecuritySupport support;

        McpRequest(SecuritySupport support) {
            this.support = support;
        }

        public SecuritySupport securitySupport() {
            return support;
        }
    }

    /** As the streamable HTTP and SSE transports write it: the HTTP user's identity, else the request's deferred one. */
    private static McpRequest http(SecurityIdentity user, Uni<SecurityIdentity> deferred) {
        return new McpRequest(new SecuritySupport() {
            @Override
            public void setCurrentIdentity(CurrentIdentityAssociation association) {
                if (user != null) {
                    association.setIdentity(user);
                } else {
                    association.setIdentity(deferred);
                }
            }
        });
    }

    private static Caller caller(Object found) {
        assertThat(found).isInstanceOf(CallerOutcome.class);
        return CallerOutcome.callerOf(found);
    }

    @Test
    void readsTheIdentityQuarkusVerifiedItsRolesAndItsTokensClaimsAsPlainJsonNeverTheToken() {
        Caller alice = caller(QuarkusIdentity.found(http(new SecurityIdentity(new JwtPrincipal(), false, Set.of("ops")), null)));
        assertThat(alice.verified()).isTrue();
        assertThat(alice.sub()).isEqualTo("u-123");
        assertThat(alice.name()).isEqualTo("alice@example.com");
        assertThat(alice.roles()).containsExactly("ops");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("iss", "https://idp.example.com/");
        expected.put("sub", "u-123");
        expected.put("upn", "alice@example.com");
        expected.put("exp", 2_000_000_000L);
        expected.put("aud", List.of("mcp-tools"));
        expected.put("groups", List.of("ops"));
        expected.put("org", Map.of("department", "finance"));
        expected.put("clearance", 3L);
        expected.put("ratio", 0.5);
        expected.put("whole", 2L);
        expected.put("admin", false);
        expected.put("mfa", true);
        expected.put("nothing", null);
        expected.put("amr", List.of("pwd", "otp"));
        assertThat(alice.claims()).isEqualTo(expected).doesNotContainKey("raw_token");
        assertThat(alice.claims().toString()).doesNotContain("eyJ");
    }

    @Test
    void aPlainPrincipalIsItsNameAndAnAnonymousIdentityOrNoneIsNoCaller() {
        Caller bob = caller(QuarkusIdentity.found(http(new SecurityIdentity(new Named(), false, new LinkedHashSet<>(List.of("dev", "user"))), null)));
        assertThat(bob.sub()).isEqualTo("bob");
        assertThat(bob.name()).isEqualTo("bob");
        assertThat(bob.roles()).containsExactly("dev", "user");
        assertThat(bob.claims()).isEmpty();

        assertThat(caller(QuarkusIdentity.found(http(new SecurityIdentity(new Named(), true, Set.of()), null))).verified())
                .as("anonymous").isFalse();
        // no security extension: the extension gives the request's deferred identity, Uni.createFrom().nullItem()
        Uni<SecurityIdentity> none = () -> CompletableFuture.completedFuture(null);
        assertThat(QuarkusIdentity.found(http(null, none))).isSameAs(CallerOutcome.NONE);
        assertThat(QuarkusIdentity.found(new McpRequest(null))).as("stdio").isSameAs(CallerOutcome.NONE);
        assertThat(QuarkusIdentity.found(new McpRequest(association -> { }))).as("nothing set").isSameAs(CallerOutcome.NONE);
    }

    @Test
    void aDeferredIdentityIsAwaitedWithoutBlockingAndOneThatFailsGoesToOnError() {
        AtomicInteger subscribed = new AtomicInteger();
        CompletableFuture<SecurityIdentity> authenticating = new CompletableFuture<>();
        Uni<SecurityIdentity> lazy = () -> {
            subscribed.incrementAndGet();
            return authenticating;
        };
        Object found = QuarkusIdentity.found(http(null, lazy));
        assertThat(found).isInstanceOf(CompletionStage.class);
        assertThat(subscribed).hasValue(1);
        CompletableFuture<?> outcome = ((CompletionStage<?>) found).toCompletableFuture();
        assertThat(outcome).isNotDone();
        authenticating.complete(new SecurityIdentity(new JwtPrincipal(), false, Set.of("ops")));
        assertThat(CallerOutcome.callerOf(outcome.join()).sub()).isEqualTo("u-123");

        // settled already (the permission check established it): read at once
        Uni<SecurityIdentity> settled = () -> CompletableFuture.completedFuture(new SecurityIdentity(new Named(), false, Set.of()));
        assertThat(caller(QuarkusIdentity.found(http(null, settled))).sub()).isEqualTo("bob");

        Uni<SecurityIdentity> failing = () -> CompletableFuture.failedFuture(new IllegalStateException("the key set did not answer"));
        Object failed = QuarkusIdentity.found(http(null, failing));
        assertThat(((CallerOutcome) failed).isUnavailable()).isTrue();
        assertThatThrownBy(() -> CallerOutcome.callerOf(failed)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the key set did not answer");
    }

    public static final class Broken implements Principal {
        @Override
        public String getName() {
            throw new IllegalStateException("no name today");
        }
    }

    @Test
    void anIdentityThatCannotBeReadIsUnavailableSoTheCallIsDecidedByOnError() {
        Object broken = QuarkusIdentity.found(http(new SecurityIdentity(new Broken(), false, Set.of()), null));
        assertThat(((CallerOutcome) broken).isUnavailable()).isTrue();
        assertThatThrownBy(() -> CallerOutcome.callerOf(broken)).isInstanceOf(IllegalStateException.class);

        SecuritySupport throwing = association -> {
            throw new IllegalStateException("boom");
        };
        assertThat(((CallerOutcome) QuarkusIdentity.found(new McpRequest(throwing))).isUnavailable()).isTrue();
        // a request of another shape (no securitySupport()): not silently no one
        assertThat(((CallerOutcome) QuarkusIdentity.found(new Object())).isUnavailable()).isTrue();
        assertThat(QuarkusIdentity.found(null)).isSameAs(CallerOutcome.NONE);
    }
}
