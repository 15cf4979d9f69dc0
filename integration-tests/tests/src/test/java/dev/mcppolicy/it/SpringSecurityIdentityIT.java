package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 32, "who is calling", when the app verifies the caller: a Spring AI MCP server (WebMvc or WebFlux) behind
 * Spring Security as an OAuth 2.0 resource server ({@code fixtures/spring-ai-1.1.2[-webflux]-secured}: every request
 * needs a JWT of the test's issuer and audience, signed by a key of the JWK set the test serves, its {@code roles} claim
 * the authorities) and the agent with a policy that has no {@code identity} section. The agent reads the caller
 * Spring Security verified ({@code ServerRequest.principal()}: its {@code JwtAuthenticationToken}, the {@code sub}
 * claim, the authorities as roles, the token's claims) and decides by it: {@code echo} needs the issuer's
 * {@code iss} claim (Spring's {@code URL} as text), only {@code ops} may run {@code run_command}, and two users'
 * bursts of 100 calls at once each get exactly their own 30 of {@code per_caller}, every call answered once. The
 * decision lines name the user, never a token; a request without a token, or with one signed by another key or for
 * another audience, is refused by Spring Security (401) before any MCP handling, so it leaves no decision line.
 */
class SpringSecurityIdentityIT {
    private static final String ISSUER = "https://idp.example.com/";
    private static final String AUDIENCE = "mcp-tools";
    private static final String SDK = "0.17.0";
    private static final int BURST = 100;
    private static final int PER_USER = 30;
    private static final String POLICY = """
            {
              "version": "1",
              "default": "deny",
              "tools": {
                "echo": { "require": [ { "path": "caller.claims.iss", "op": "eq", "value": "https://idp.example.com/" } ] },
                "run_command": { "require": [ { "path": "caller.roles", "op": "contains", "value": "ops" } ] },
                "per_caller": { "limits": [ { "window": "hour", "max": %d, "scope": "user" } ] }
              }
            }
            """.formatted(PER_USER);
    private static final String OK = "RESULT isError=false text=";

    @ParameterizedTest(name = "Spring AI {0} {1}")
    @CsvSource({"1.1.2-secured, streamable", "1.1.2-secured, sse", "1.1.2-webflux-secured, streamable"})
    void decidesByTheCallerSpringSecurityVerified(String fixture, String transport) throws Exception {
        String name = "spring-security-" + fixture + "-" + transport;
        Path root = Fixtures.workDir(name);
        Path serverDir = Files.createDirectories(root.resolve("server"));
        Files.writeString(serverDir.resolve("mcp-policy.json"), POLICY);
        RSAKey key = new RSAKeyGenerator(2048).keyID("k1").generate();
        String alice = token(key, "alice", List.of("ops"), AUDIENCE);
        String bob = token(key, "bob", List.of("dev"), AUDIENCE);
        String forged = token(new RSAKeyGenerator(2048).keyID("k1").generate(), "alice", List.of("ops"), AUDIENCE);
        String elsewhere = token(key, "alice", List.of("ops"), "another-api");
        String classPath = Fixtures.classPath(SDK);
        HttpServer keys = jwks(new JWKSet(key.toPublicJWK()).toString());
        List<ForkedJvm> jvms = new ArrayList<>();
        try {
            String jwksUri = "http://127.0.0.1:" + keys.getAddress().getPort() + "/jwks.json";
            ForkedJvm server = ForkedJvm.startProcess(name + "-server", serverDir, List.of(ForkedJvm.javaExecutable(),
                    Fixtures.javaagent(""), "-jar", Fixtures.springApp(fixture).toString(), "--spring.profiles.active=" + transport + ",secured",
                    "--spring.security.oauth2.resourceserver.jwt.jwk-set-uri=" + jwksUri));
            jvms.add(server);
            String url = "http://localhost:" + server.awaitStderr(l -> l.startsWith("FIXTURE LISTENING ")).substring(18).trim();
            ForkedJvm asAlice = Callers.start(jvms, root.resolve("alice"), name + "-alice", "Bearer " + alice, classPath, transport, url);
            ForkedJvm asBob = Callers.start(jvms, root.resolve("bob"), name + "-bob", "Bearer " + bob, classPath, transport, url);

            assertThat(Callers.call(asAlice, "run_command", "{\"command\":\"uptime\"}")).as(server.dump()).isEqualTo(OK + "run_command done");
            assertThat(Callers.call(asBob, "run_command", "{\"command\":\"uptime\"}"))
                    .startsWith("RESULT isError=true text=Policy denied tool 'run_command': ").endsWith("[rule /tools/run_command/require/0]");
            assertThat(Callers.call(asBob, "echo", "{\"text\":\"hi\"}")).isEqualTo(OK + "echo: hi");

            // both users' bursts in flight at once: a budget per verified user, whatever the interleaving
            int aliceFrom = asAlice.stdout().size();
            int bobFrom = asBob.stdout().size();
            asAlice.send("burst " + BURST + " " + BURST + " per_caller {}");
            asBob.send("burst " + BURST + " " + BURST + " per_caller {}");
            for (ForkedJvm client : List.of(asAlice, asBob)) {
                String line = client.awaitStdout(client == asAlice ? aliceFrom : bobFrom, l -> l.startsWith(">> BURST ") || l.startsWith(">> ERROR"));
                assertThat(line).as(client.dump()).startsWith(">> BURST ");
                List<String> answers = Arrays.asList(line.substring(">> BURST ".length()).split("\t"));
                assertThat(answers).as("every call answered once").hasSize(BURST);
                assertThat(answers).filteredOn(a -> a.equals(OK + "per_caller done")).as("%s", answers).hasSize(PER_USER);
                assertThat(answers).filteredOn(a -> !a.equals(OK + "per_caller done")).hasSize(BURST - PER_USER)
                        .allMatch(a -> a.startsWith("RESULT isError=true text=Policy denied tool 'per_caller': ") && a.contains("retry after")
                                && a.endsWith("[rule /tools/per_caller/limits/0]"));
            }
            List<String> burstLines = server.awaitStderrCount(l -> l.contains(" tool=per_caller "), 2 * BURST, Duration.ofSeconds(10));
            assertThat(burstLines).as(server.dump()).hasSize(2 * BURST);
            for (String user : List.of("alice", "bob")) {
                assertThat(burstLines).filteredOn(l -> l.contains(" user=" + user + " ")).hasSize(BURST)
                        .filteredOn(l -> l.contains("decision=ALLOW")).hasSize(PER_USER);
            }
            assertThat(server.stderr()).filteredOn(l -> l.startsWith("HANDLER RAN per_caller")).hasSize(2 * PER_USER);

            // no token, a token signed by another key, one for another audience: Spring Security answers 401 itself, and
            // the fixture client never gets a session (the SDK's client does not say the status: it fails or times out)
            List<String> refused = List.of("", "Bearer " + forged, "Bearer " + elsewhere);
            for (String authorization : refused) {
                HttpResponse<String> answer = unauthorized(url, transport, authorization);
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(401);
                assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(challenge -> assertThat(challenge)
                        .startsWith("Bearer").contains(authorization.isEmpty() ? "Bearer" : "error=\"invalid_token\""));
            }
            List<ForkedJvm> strangers = new ArrayList<>();
            for (String authorization : refused) {
                strangers.add(stranger(jvms, root, name, authorization, classPath, transport, url));
            }
            for (ForkedJvm stranger : strangers) {
                assertThat(stranger.waitForExit()).as(stranger.dump()).isNotZero();
                assertThat(stranger.stdout()).as(stranger.dump()).doesNotContain(">> READY");
            }

            assertThat(Callers.call(asAlice, "echo", "{\"text\":\"last\"}")).isEqualTo(OK + "echo: last");
            server.awaitStderr(l -> l.startsWith("HANDLER RAN echo {text=last}"));
            List<String> log = server.stderr();
            assertThat(log).as(server.dump()).filteredOn(l -> l.contains("decision=ALLOW tool=run_command")).hasSize(1)
                    .allMatch(l -> l.contains(" user=alice "));
            assertThat(log).filteredOn(l -> l.contains("decision=DENY tool=run_command")).hasSize(1).allMatch(l -> l.contains(" user=bob "));
            // every decision is one of alice's or bob's: none for the refused requests, which never reached the transport
            assertThat(log).filteredOn(l -> l.contains("mcp-policy decision=")).hasSize(3 + 2 * BURST + 1)
                    .allMatch(l -> l.contains(" user=alice ") || l.contains(" user=bob "));
            Predicate<String> leaks = l -> Arrays.stream(new String[] {alice, bob, forged, elsewhere})
                    .anyMatch(token -> l.contains(token) || l.contains(token.substring(token.lastIndexOf('.') + 1)));
            assertThat(log).noneMatch(leaks).noneMatch(l -> l.contains("advice error"));
            assertThat(server.stdout()).noneMatch(leaks);
        } finally {
            for (ForkedJvm jvm : jvms) {
                jvm.close();
            }
            keys.stop(0);
        }
    }

    /**
     * A fixture client whose requests carry {@code Authorization: <authorization>} (none when empty), started without
     * waiting: the app refuses it, so it exits without ever being ready (its initialize fails, or times out after 5 s).
     */
    private static ForkedJvm stranger(List<ForkedJvm> jvms, Path root, String name, String authorization, String classPath,
            String transport, String url) throws Exception {
        String who = "stranger-" + jvms.size();
        List<String> options = new ArrayList<>(List.of("-Dfixture.timeout=5"));
        if (!authorization.isEmpty()) {
            options.add("-Dfixture.authorization=" + authorization);
        }
        ForkedJvm client = ForkedJvm.start(name + "-" + who, Files.createDirectories(root.resolve(who)), options, classPath,
                "fixture.FixtureClient", List.of(transport, url));
        jvms.add(client);
        return client;
    }

    /**
     * The request that opens an MCP session on {@code transport} (an {@code initialize} POST to {@code /mcp}, or the SSE
     * stream's GET), sent with {@code Authorization: <authorization>} (none when empty): what Spring Security answers.
     */
    private static HttpResponse<String> unauthorized(String url, String transport, String authorization) throws Exception {
        HttpRequest.Builder request = "sse".equals(transport)
                ? HttpRequest.newBuilder(URI.create(url + "/sse")).header("Accept", "text/event-stream").GET()
                : HttpRequest.newBuilder(URI.create(url + "/mcp")).header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString(AbstractConcurrencyScenarios.INIT.formatted("2025-03-26")));
        if (!authorization.isEmpty()) {
            request.header("Authorization", authorization);
        }
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        return http.send(request.timeout(ForkedJvm.TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The test's key set, as an identity provider publishes it: {@code GET /jwks.json} on loopback. */
    private static HttpServer jwks(String json) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/jwks.json", exchange -> {
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    private static String token(RSAKey key, String subject, List<String> roles, String audience) throws Exception {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(subject).issuer(ISSUER).audience(audience)
                .expirationTime(Date.from(Instant.now().plusSeconds(3600))).claim("roles", roles).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }
}
