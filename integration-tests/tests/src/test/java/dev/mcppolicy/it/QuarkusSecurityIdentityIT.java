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
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 32, "who is calling", on the Quarkus MCP server ({@code io.quarkiverse.mcp} 1.13.0 over streamable HTTP and SSE,
 * 1.10.1 over streamable HTTP) when Quarkus Security verifies the caller: the fixture app behind SmallRye JWT ({@code fixtures/quarkus-mcp-<version>-secured}: every request to
 * {@code /mcp} needs a JWT of the test's issuer and audience, signed by a key of the JWK set the test serves, its
 * {@code groups} claim the roles), run as {@code java -javaagent -jar quarkus-run.jar} with a policy that has no
 * {@code identity} section. The agent reads the request's {@code SecurityIdentity} (through the extension's
 * {@code SecuritySupport}, as the extension hands it to the request's CDI context) and decides by it:
 * <ul>
 * <li>roles: only {@code ops} (alice) may run {@code run_command}; bob ({@code dev}) is denied by
 * {@code [rule /tools/run_command/require/0]};</li>
 * <li>claims, read from the principal's {@code JsonWebToken} as plain JSON: {@code echo} needs the issuer's {@code iss}
 * (a string), {@code transfer} is denied to the finance department (a custom claim that is a JSON object, read by a dot
 * path), {@code wire_money} needs a {@code clearance} (a JSON number) of at least 3;</li>
 * <li>per-user limits under concurrency: both users' bursts of 100 {@code per_caller} calls in flight at once, each
 * user gets exactly its own 30, every call answered once;</li>
 * <li>the decision lines name the user ({@code user=alice}, {@code user=bob}) and never a token; no {@code advice error};</li>
 * <li>a request without a token, or with one signed by another key, is refused by Quarkus (401) before any MCP
 * handling, so it leaves no decision line.</li>
 * </ul>
 */
class QuarkusSecurityIdentityIT {
    /** The fixture client of the newest classic SDK, as for the other Quarkus ITs. */
    private static final String SDK = "2.1.0";
    private static final String POLICY = """
            {
              "version": "1",
              "default": "deny",
              "tools": {
                "echo": { "require": [ { "path": "caller.claims.iss", "op": "eq", "value": "https://idp.example.com/" } ] },
                "run_command": { "require": [ { "path": "caller.roles", "op": "contains", "value": "ops" } ] },
                "transfer": { "deny_if": [ { "path": "caller.claims.org.department", "op": "eq", "value": "finance" } ] },
                "wire_money": { "require": [ { "path": "caller.claims.clearance", "op": "gte", "value": 3 } ] },
                "per_caller": { "limits": [ { "window": "hour", "max": %d, "scope": "user" } ] }
              }
            }
            """.formatted(PER_USER);

    @ParameterizedTest(name = "quarkus-mcp-server {0} {1}")
    @CsvSource({"1.13.0-secured, streamable", "1.13.0-secured, sse", "1.10.1-secured, streamable"})
    void decidesByTheCallerQuarkusSecurityVerified(String fixture, String transport) throws Exception {
        String name = "quarkus-security-" + fixture + "-" + transport;
        Path root = Fixtures.workDir(name);
        Path serverDir = Files.createDirectories(root.resolve("server"));
        Files.writeString(serverDir.resolve("mcp-policy.json"), POLICY);
        RSAKey key = new RSAKeyGenerator(2048).keyID("k1").generate();
        String alice = token(key, "alice", List.of("ops"), "finance", 3);
        String bob = token(key, "bob", List.of("dev"), "engineering", 1);
        String forged = token(new RSAKeyGenerator(2048).keyID("k1").generate(), "alice", List.of("ops"), "finance", 3);
        String classPath = Fixtures.classPath(SDK);
        HttpServer keys = VerifiedCallers.keySet(new JWKSet(key.toPublicJWK()).toString());
        List<ForkedJvm> jvms = new ArrayList<>();
        try {
            String jwksUri = "http://127.0.0.1:" + keys.getAddress().getPort() + "/jwks.json";
            List<String> command = new ArrayList<>(List.of(ForkedJvm.javaExecutable(), Fixtures.javaagent(""),
                    "-Dquarkus.mcp.server.stdio.enabled=false", "-Dquarkus.http.port=" + Fixtures.freePort(),
                    "-Dmp.jwt.verify.publickey.location=" + jwksUri));
            if ("sse".equals(transport)) {
                // the client finds the SSE endpoint under the path the app announces, /mcp/sse
                command.add("-Dfixture.http.path=/mcp");
            }
            command.addAll(List.of("-jar", Fixtures.quarkusApp(fixture).toString()));
            ForkedJvm server = ForkedJvm.startProcess(name + "-server", serverDir, command);
            jvms.add(server);
            String url = "http://localhost:" + server.awaitStderr(l -> l.startsWith("FIXTURE LISTENING ")).substring(18).trim();
            ForkedJvm asAlice = Callers.start(jvms, root.resolve("alice"), name + "-alice", "Bearer " + alice, classPath, transport, url);
            ForkedJvm asBob = Callers.start(jvms, root.resolve("bob"), name + "-bob", "Bearer " + bob, classPath, transport, url);

            VerifiedCallers.assertRolesAndClaimsDecide(server, asAlice, asBob);
            assertThat(Callers.call(asAlice, "transfer", "{\"amount\":5}"))
                    .startsWith("RESULT isError=true text=Policy denied tool 'transfer': ").endsWith("[rule /tools/transfer/deny_if/0]");
            assertThat(Callers.call(asBob, "transfer", "{\"amount\":5}")).isEqualTo(OK + "transfer done");
            assertThat(Callers.call(asAlice, "wire_money", "{\"amount\":5}")).isEqualTo(OK + "wire_money done");
            assertThat(Callers.call(asBob, "wire_money", "{\"amount\":5}"))
                    .startsWith("RESULT isError=true text=Policy denied tool 'wire_money': ").endsWith("[rule /tools/wire_money/require/0]");

            // both users' bursts in flight at once: a budget per verified user, whatever the interleaving
            VerifiedCallers.assertABudgetPerUser(server, asAlice, asBob, BURST, PER_USER);

            // no token, or one signed by another key: Quarkus answers 401 itself, and a fixture client never gets a session
            // (the initialize's JSON-RPC id is a number: the extension's own handler of a failed authentication reads the
            // body's id as an integer and answers nothing for a string id (1.13.0: a ClassCastException on the event loop,
            // the request left open), so an SDK client with a refused token times out rather than failing at once)
            List<String> refused = List.of("", "Bearer " + forged);
            for (String authorization : refused) {
                HttpResponse<String> answer = VerifiedCallers.openSession(url, transport, authorization, "1");
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(401);
                if (authorization.isEmpty()) {
                    assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
                }
                assertThat(answer.body()).doesNotContain(forged.substring(forged.lastIndexOf('.') + 1));
            }
            VerifiedCallers.assertNeverServed(jvms, root, name, refused, classPath, transport, url);

            assertThat(Callers.call(asAlice, "echo", "{\"text\":\"last\"}")).isEqualTo(OK + "echo: last");
            server.awaitStderr(l -> l.startsWith("HANDLER RAN echo {text=last}"));
            List<String> log = server.stderr();
            assertThat(log).as(server.dump()).filteredOn(l -> l.contains("decision=ALLOW tool=run_command")).hasSize(1)
                    .allMatch(l -> l.contains(" user=alice "));
            assertThat(log).filteredOn(l -> l.contains("decision=DENY tool=run_command")).hasSize(1).allMatch(l -> l.contains(" user=bob "));
            assertThat(log).filteredOn(l -> l.contains("decision=DENY tool=transfer")).hasSize(1).allMatch(l -> l.contains(" user=alice "));
            assertThat(log).filteredOn(l -> l.contains("decision=DENY tool=wire_money")).hasSize(1).allMatch(l -> l.contains(" user=bob "));
            // every decision is one of alice's or bob's: none for the refused requests, which never reached the extension
            assertThat(log).filteredOn(l -> l.contains("mcp-policy decision=")).hasSize(7 + 2 * BURST + 1)
                    .allMatch(l -> l.contains(" user=alice ") || l.contains(" user=bob "));
            VerifiedCallers.assertNoTokenLeaks(server, alice, bob, forged);
        } finally {
            for (ForkedJvm jvm : jvms) {
                jvm.close();
            }
            keys.stop(0);
        }
    }

    /** A token of the test's issuer for {@code mcp-tools}: SmallRye JWT's roles from {@code groups}, and two custom claims. */
    private static String token(RSAKey key, String subject, List<String> groups, String department, int clearance) throws Exception {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(subject).issuer(ISSUER).audience(AUDIENCE)
                .expirationTime(Date.from(Instant.now().plusSeconds(3600))).issueTime(new Date()).claim("groups", groups)
                .claim("org", Map.of("department", department)).claim("clearance", clearance).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }
}
