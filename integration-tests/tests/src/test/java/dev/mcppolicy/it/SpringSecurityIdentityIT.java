package dev.mcppolicy.it;

import static dev.mcppolicy.it.VerifiedCallers.AUDIENCE;
import static dev.mcppolicy.it.VerifiedCallers.BURST;
import static dev.mcppolicy.it.VerifiedCallers.ISSUER;
import static dev.mcppolicy.it.VerifiedCallers.OK;
import static dev.mcppolicy.it.VerifiedCallers.PER_USER;
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
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
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
    private static final String SDK = "0.17.0";
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
        HttpServer keys = VerifiedCallers.keySet(new JWKSet(key.toPublicJWK()).toString());
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

            VerifiedCallers.assertRolesAndClaimsDecide(server, asAlice, asBob);

            // both users' bursts in flight at once: a budget per verified user, whatever the interleaving
            VerifiedCallers.assertABudgetPerUser(server, asAlice, asBob, BURST, PER_USER);

            // no token, a token signed by another key, one for another audience: Spring Security answers 401 itself, and
            // the fixture client never gets a session (the SDK's client does not say the status: it fails or times out)
            List<String> refused = List.of("", "Bearer " + forged, "Bearer " + elsewhere);
            for (String authorization : refused) {
                HttpResponse<String> answer = VerifiedCallers.openSession(url, transport, authorization, "\"init\"");
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(401);
                assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(challenge -> assertThat(challenge)
                        .startsWith("Bearer").contains(authorization.isEmpty() ? "Bearer" : "error=\"invalid_token\""));
            }
            VerifiedCallers.assertNeverServed(jvms, root, name, refused, classPath, transport, url);

            assertThat(Callers.call(asAlice, "echo", "{\"text\":\"last\"}")).isEqualTo(OK + "echo: last");
            server.awaitStderr(l -> l.startsWith("HANDLER RAN echo {text=last}"));
            List<String> log = server.stderr();
            assertThat(log).as(server.dump()).filteredOn(l -> l.contains("decision=ALLOW tool=run_command")).hasSize(1)
                    .allMatch(l -> l.contains(" user=alice "));
            assertThat(log).filteredOn(l -> l.contains("decision=DENY tool=run_command")).hasSize(1).allMatch(l -> l.contains(" user=bob "));
            // every decision is one of alice's or bob's: none for the refused requests, which never reached the transport
            assertThat(log).filteredOn(l -> l.contains("mcp-policy decision=")).hasSize(3 + 2 * BURST + 1)
                    .allMatch(l -> l.contains(" user=alice ") || l.contains(" user=bob "));
            VerifiedCallers.assertNoTokenLeaks(server, alice, bob, forged, elsewhere);
        } finally {
            for (ForkedJvm jvm : jvms) {
                jvm.close();
            }
            keys.stop(0);
        }
    }

    private static String token(RSAKey key, String subject, List<String> roles, String audience) throws Exception {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(subject).issuer(ISSUER).audience(audience)
                .expirationTime(Date.from(Instant.now().plusSeconds(3600))).claim("roles", roles).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }
}
