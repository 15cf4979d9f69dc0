package dev.mcppolicy.agent.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Caller identity from a transport context: which key wins, and that a credential is never kept raw. */
class IdentityTest {
    private static final String ALICE = Identity.principalOf("alice");
    private static final String BEARER = Identity.principalOf("Bearer token-1");

    @Test
    void principalIsTheHashOfACredentialNeverTheCredential() {
        assertThat(BEARER).matches("principal:[0-9a-f]{16}").doesNotContain("token-1");
        assertThat(Identity.principalOf("Bearer token-1")).isEqualTo(BEARER);
        assertThat(Identity.principalOf("Bearer token-2")).isNotEqualTo(BEARER);
    }

    @Test
    void readsWhatTheAppsExtractorStored() {
        assertThat(Identity.clientId(context(Map.of("principal", "alice")))).isEqualTo(ALICE);
        assertThat(Identity.clientId(context(Map.of("Authorization", "Bearer token-1")))).isEqualTo(BEARER);
        assertThat(Identity.clientId(context(Map.of("authorization", "Bearer token-1")))).isEqualTo(BEARER);
        assertThat(Identity.clientId(context(Map.of()))).isNull();
    }

    @Test
    void theAgentsHeaderHashComesAfterAnAppPrincipalAndBeforeAnAppStoredHeader() {
        Object bare = Identity.withPrincipal(context(Map.of()), BEARER);
        assertThat(bare).isInstanceOf(McpTransportContext.class);
        assertThat(Identity.clientId(bare)).isEqualTo(BEARER);

        Object withAppPrincipal = Identity.withPrincipal(context(Map.of("principal", "alice")), BEARER);
        assertThat(Identity.clientId(withAppPrincipal)).isEqualTo(ALICE);

        Object withAppHeader = Identity.withPrincipal(context(Map.of("Authorization", "Bearer other")), BEARER);
        assertThat(Identity.clientId(withAppHeader)).isEqualTo(BEARER);
    }

    /** A stateful server's exchange, as the hooks see it: any class whose name ends with {@code ServerExchange}. */
    public static final class FakeServerExchange {
        private final Object context;
        private final Object clientInfo;

        FakeServerExchange(Object context, Object clientInfo) {
            this.context = context;
            this.clientInfo = clientInfo;
        }

        public Object transportContext() {
            return context;
        }

        public Object getClientInfo() {
            return clientInfo;
        }
    }

    public record Implementation(String name) {
    }

    public record OtherImplementation(String name) {
    }

    public static final class MapContext implements McpTransportContext {
        private final Map<String, Object> values;

        MapContext(Map<String, Object> values) {
            this.values = values;
        }

        @Override
        public Object get(String key) {
            return values.get(key);
        }
    }

    /** Issue 16: the first context and client-info classes' handles are kept per exchange class; others still work. */
    @Test
    void anExchangeReadsContextsAndClientInfosOfSeveralClasses() {
        Object plain = new MapContext(Map.of("principal", "alice"));
        Object anonymous = context(Map.of("Authorization", "Bearer token-1"));
        Object proxied = Identity.withPrincipal(new MapContext(Map.of()), BEARER);
        for (int round = 0; round < 3; round++) {
            assertThat(Identity.clientId(new FakeServerExchange(plain, new Implementation("x")))).isEqualTo(ALICE);
            assertThat(Identity.clientId(new FakeServerExchange(anonymous, new Implementation("x")))).isEqualTo(BEARER);
            assertThat(Identity.clientId(new FakeServerExchange(proxied, new Implementation("x")))).isEqualTo(BEARER);
            Object none = new MapContext(Map.of());
            assertThat(Identity.clientId(new FakeServerExchange(none, new Implementation("claude-code")))).isEqualTo("claude-code");
            assertThat(Identity.clientId(new FakeServerExchange(none, new OtherImplementation("cursor")))).isEqualTo("cursor");
            assertThat(Identity.clientId(new FakeServerExchange(null, null))).isNull();
        }
    }

    @Test
    void theProxyAnswersEverythingElseFromTheAppsContext() {
        McpTransportContext original = context(Map.of("tenant", "t-42"));
        McpTransportContext seen = (McpTransportContext) Identity.withPrincipal(original, BEARER);
        assertThat(seen.get("tenant")).isEqualTo("t-42");
        assertThat(seen.get(Identity.AGENT_PRINCIPAL_KEY)).isEqualTo(BEARER);
        assertThat(seen.toString()).isEqualTo(original.toString());
    }

    @Test
    void readsTheHeaderOfAServletRequestAndOfASpringServerRequest() {
        assertThat(Identity.header(new ServletRequest(Map.of("Authorization", "Bearer token-1")), "Authorization"))
                .isEqualTo("Bearer token-1");
        ServerRequest spring = new ServerRequest(new ServerRequest.Headers(Map.of("Authorization", "Bearer token-1")));
        assertThat(Identity.header(spring, "Authorization")).isEqualTo("Bearer token-1");
        assertThat(Identity.header(new ServerRequest(new ServerRequest.Headers(Map.of())), "Authorization")).isNull();
        assertThat(Identity.header("neither", "Authorization")).isNull();
    }

    /** A servlet request's shape: {@code getHeader(name)}. */
    public static final class ServletRequest {
        private final Map<String, String> headers;

        ServletRequest(Map<String, String> headers) {
            this.headers = headers;
        }

        public String getHeader(String name) {
            return headers.get(name);
        }
    }

    /** Spring's functional {@code ServerRequest} (WebMvc and WebFlux): {@code headers().firstHeader(name)}. */
    public static final class ServerRequest {
        private final Headers headers;

        ServerRequest(Headers headers) {
            this.headers = headers;
        }

        public Headers headers() {
            return headers;
        }

        /** {@code ServerRequest.Headers}. */
        public static final class Headers {
            private final Map<String, String> values;

            Headers(Map<String, String> values) {
                this.values = values;
            }

            public String firstHeader(String name) {
                return values.get(name);
            }
        }
    }

    @Test
    void anObjectThatIsNoTransportContextIsLeftAsItIs() {
        Object notAContext = "not a context";
        assertThat(Identity.withPrincipal(notAContext, BEARER)).isSameAs(notAContext);
        assertThat(Identity.withPrincipal(null, BEARER)).isNull();
    }

    /** The SDK's shapes, by field name as in 0.10 – 2.1: a client's {@code transport}, its {@code params} or {@code baseUri}. */
    static final class Client {
        final Object transport;

        Client(Object transport) {
            this.transport = transport;
        }
    }

    static final class ServerParameters {
        final String command;
        final List<String> args;

        ServerParameters(String command, List<String> args) {
            this.command = command;
            this.args = args;
        }
    }

    static final class Stdio {
        final ServerParameters params;

        Stdio(ServerParameters params) {
            this.params = params;
        }
    }

    static final class Streamable {
        final java.net.URI baseUri;
        final String endpoint;

        Streamable(String baseUri, String endpoint) {
            this.baseUri = java.net.URI.create(baseUri);
            this.endpoint = endpoint;
        }
    }

    static final class Sse {
        final java.net.URI baseUri;
        final String sseEndpoint;

        Sse(String baseUri, String sseEndpoint) {
            this.baseUri = java.net.URI.create(baseUri);
            this.sseEndpoint = sseEndpoint;
        }
    }

    @Test
    void aServersAddressIsHowTheClientReachedIt() {
        assertThat(Identity.serverAddress(new Client(new Stdio(new ServerParameters("npx", List.of("-y", "@acme/server"))))))
                .isEqualTo("stdio:npx -y @acme/server");
        assertThat(Identity.serverAddress(new Client(new Stdio(new ServerParameters("server", List.of()))))).isEqualTo("stdio:server");
        assertThat(Identity.serverAddress(new Client(new Streamable("http://localhost:8080", "/mcp")))).isEqualTo("url:http://localhost:8080/mcp");
        assertThat(Identity.serverAddress(new Client(new Sse("https://h.example/base/", "sse")))).isEqualTo("url:https://h.example/base/sse");
        assertThat(Identity.serverAddress(new Client("a transport it does not know"))).isNull();
        assertThat(Identity.serverAddress(new Client(null))).isNull();
    }

    private static McpTransportContext context(Map<String, Object> values) {
        return new McpTransportContext() {
            @Override
            public Object get(String key) {
                return values.get(key);
            }

            @Override
            public String toString() {
                return "context" + values;
            }
        };
    }
}
