package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 32: the agent verifies callers' Bearer tokens itself ({@code identity.jwt}, a JWK set in a file beside the
 * policy) on the SDK's servlet transports (and the SDK 2.2 modern API's), and decides by who is calling: only the {@code ops} role may run
 * {@code run_command}, each user has a budget of its own, and a token signed with another key, an expired one, or
 * HS256 with the public key as its secret is no caller at all. The decision lines name the verified user, never a
 * token.
 */
class JwtIdentityIT {
    private static final String ISSUER = "https://idp.example.com/";
    private static final String POLICY = """
            {
              "version": "1",
              "default": "deny",
              "identity": { "jwt": { "jwks": "jwks.json", "issuer": "https://idp.example.com/", "audience": "mcp-tools" } },
              "tools": {
                "echo": {},
                "run_command": { "require": [ { "path": "caller.roles", "op": "contains", "value": "ops" } ] },
                "limited": { "limits": [ { "window": "hour", "max": 2, "scope": "user" } ] }
              }
            }
            """;
    private static final String OK = "RESULT isError=false text=";

    @ParameterizedTest(name = "SDK {0} {1}")
    @CsvSource({"0.14.0, streamable", "2.1.0, streamable", "2.1.0, sse", "2.1.0, stateless", "2.2.0, modern-http"})
    void decidesByTheCallerTheAgentVerified(String sdk, String transport) throws Exception {
        String name = "jwt-" + sdk + "-" + transport;
        Path root = Fixtures.workDir(name);
        Path serverDir = Files.createDirectories(root.resolve("server"));
        RSAKey key = new RSAKeyGenerator(2048).keyID("k1").generate();
        Files.writeString(serverDir.resolve("jwks.json"), new JWKSet(key.toPublicJWK()).toString());
        Files.writeString(serverDir.resolve("mcp-policy.json"), POLICY);
        String alice = token(key, "alice", List.of("ops"), Instant.now().plusSeconds(3600));
        String bob = token(key, "bob", List.of("dev"), Instant.now().plusSeconds(3600));
        String forged = token(new RSAKeyGenerator(2048).keyID("k1").generate(), "alice", List.of("ops"), Instant.now().plusSeconds(3600));
        String expired = token(key, "alice", List.of("ops"), Instant.now().minusSeconds(3600));
        String confused = hs256WithThePublicKey(key);
        String classPath = Fixtures.classPath(sdk);
        // modern-http: the SDK 2.2 modern API's apps over its HTTP transport (protocol 2026-07-28)
        boolean modern = transport.startsWith("modern-");
        String wire = modern ? transport.substring("modern-".length()) : transport;
        String client = modern ? "fixture.ModernClient" : "fixture.FixtureClient";
        List<ForkedJvm> jvms = new ArrayList<>();
        try {
            ForkedJvm server = ForkedJvm.start(name + "-server", serverDir, List.of(Fixtures.javaagent("")), classPath,
                    modern ? "fixture.ModernServer" : "fixture.FixtureServer", List.of(wire));
            jvms.add(server);
            String url = "http://localhost:" + server.awaitStderr(l -> l.startsWith("FIXTURE LISTENING ")).substring(18).trim();
            ForkedJvm asAlice = Callers.start(jvms, root.resolve("alice"), name + "-alice", "Bearer " + alice, classPath, client, wire, url);
            ForkedJvm asBob = Callers.start(jvms, root.resolve("bob"), name + "-bob", "Bearer " + bob, classPath, client, wire, url);

            assertThat(Callers.call(asAlice, "run_command")).isEqualTo(OK + "run_command done");
            assertThat(Callers.call(asBob, "run_command")).startsWith("RESULT isError=true text=Policy denied tool 'run_command': ")
                    .endsWith("[rule /tools/run_command/require/0]");
            assertThat(Callers.call(asAlice, "limited")).isEqualTo(OK + "limited done");
            assertThat(Callers.call(asAlice, "limited")).isEqualTo(OK + "limited done");
            assertThat(Callers.call(asAlice, "limited")).startsWith("RESULT isError=true").contains("retry after")
                    .endsWith("[rule /tools/limited/limits/0]");
            assertThat(Callers.call(asBob, "limited")).isEqualTo(OK + "limited done");
            for (String bad : List.of(forged, expired, confused)) {
                ForkedJvm mallory = Callers.start(jvms, root.resolve("m" + jvms.size()), name + "-mallory" + jvms.size(), "Bearer " + bad, classPath,
                        client, wire, url);
                assertThat(Callers.call(mallory, "run_command")).as(server.dump()).startsWith("RESULT isError=true text=Policy denied tool 'run_command'");
                // no verified caller: the user budget of everyone without one, (none)
                assertThat(Callers.call(mallory, "echo")).isEqualTo(OK + "echo: null");
            }
            server.awaitStderr(l -> l.contains("decision=ALLOW tool=limited") && l.contains(" user=bob "));
            List<String> log = server.stderr();
            assertThat(log).as(server.dump()).filteredOn(l -> l.contains("decision=ALLOW tool=run_command")).hasSize(1)
                    .allMatch(l -> l.contains(" user=alice "));
            assertThat(log).filteredOn(l -> l.contains("decision=DENY tool=run_command")).hasSize(4)
                    .filteredOn(l -> l.contains(" user=")).hasSize(1).allMatch(l -> l.contains(" user=bob "));
            assertThat(log).noneMatch(l -> Arrays.stream(new String[] {alice, bob, forged, expired, confused}).anyMatch(l::contains))
                    .noneMatch(l -> l.contains("advice error"));
        } finally {
            for (ForkedJvm jvm : jvms) {
                jvm.close();
            }
        }
    }

    private static String token(RSAKey key, String subject, List<String> roles, Instant expires) throws Exception {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(subject).issuer(ISSUER).audience("mcp-tools")
                .expirationTime(Date.from(expires)).claim("roles", roles).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    /** The algorithm-confusion attack: HS256, its secret the RSA public key's bytes, which anyone may read from the key set. */
    private static String hs256WithThePublicKey(RSAKey key) throws Exception {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject("alice").issuer(ISSUER).audience("mcp-tools")
                .expirationTime(Date.from(Instant.now().plusSeconds(3600))).claim("roles", List.of("ops")).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), claims);
        jwt.sign(new MACSigner(key.toRSAPublicKey().getEncoded()));
        return jwt.serialize();
    }
}
