package dev.mcppolicy.agent.identity;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetSequenceKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.mcppolicy.policy.Identity;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 32, item 4: every token the agent must not take for a caller, and the one it must. */
class JwtVerifierTest {
    private static final String ISSUER = "https://idp.example.com/";
    private static final String AUDIENCE = "mcp-tools";
    private static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(NOW);
    private RSAKey rsa;
    private RSAKey otherRsa;
    private ECKey ec;
    private HttpServer server;
    private final AtomicReference<String> served = new AtomicReference<>();
    private final AtomicInteger fetches = new AtomicInteger();
    /** Set: the key set server holds each request until the test ends (a server that hangs); released in {@link #stop}. */
    private final CountDownLatch hang = new CountDownLatch(1);
    private volatile boolean hangs;

    @BeforeEach
    void keys() throws Exception {
        rsa = new RSAKeyGenerator(2048).keyID("k1").generate();
        otherRsa = new RSAKeyGenerator(2048).keyID("k1").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("e1").generate();
        served.set(new JWKSet(List.of(rsa.toPublicJWK(), ec.toPublicJWK())).toString());
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/jwks", exchange -> {
            fetches.incrementAndGet();
            try {
                if (hangs) {
                    hang.await();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = served.get().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        hang.countDown();
        server.stop(0);
    }

    private JwtVerifier verifier() {
        return verifier("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks", Duration.ofSeconds(2));
    }

    private JwtVerifier verifier(String jwks, Duration timeout) {
        return new JwtVerifier(new Identity.Jwt(jwks, ISSUER, AUDIENCE), dir, timeout, clock);
    }

    private static JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder().subject("alice").issuer(ISSUER).audience(List.of(AUDIENCE, "other"))
                .expirationTime(Date.from(NOW.plusSeconds(600))).issueTime(Date.from(NOW)).claim("name", "Alice")
                .claim("roles", List.of("ops")).claim("scope", "read write").claim("department", "finance");
    }

    private static String rs256(RSAKey key, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).type(JOSEObjectType.JWT).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    @Test
    void aTokenSignedByAKeyOfTheSetForTheIssuerAndAudienceIsACallerOnceVerified() throws Exception {
        JwtVerifier verifier = verifier();
        String token = rs256(rsa, claims().build());
        JwtVerifier.Outcome outcome = verifier.verify(token);
        assertThat(outcome.isVerified()).as(String.valueOf(outcome.rejection())).isTrue();
        assertThat(outcome.caller().sub()).isEqualTo("alice");
        assertThat(outcome.caller().name()).isEqualTo("Alice");
        assertThat(outcome.caller().roles()).containsExactly("ops", "read", "write");
        assertThat(outcome.caller().claims().get("department")).isEqualTo("finance");
        assertThat(verifier.verify(token)).isSameAs(outcome);
        assertThat(fetches).hasValue(1);
        // an EC key of the same set, ES256
        SignedJWT es = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("e1").build(), claims().subject("bob").build());
        es.sign(new ECDSASigner(ec));
        assertThat(verifier.verify(es.serialize()).caller().sub()).isEqualTo("bob");
        // once expired, no longer a caller, from the cache or not
        clock.set(NOW.plusSeconds(600 + 61));
        assertThat(verifier.verify(token).isVerified()).isFalse();
    }

    @Test
    void algNoneIsNeverACaller() throws Exception {
        String header = Base64URL.encode("{\"alg\":\"none\",\"kid\":\"k1\"}").toString();
        String body = Base64URL.encode(claims().build().toString()).toString();
        JwtVerifier.Outcome outcome = verifier().verify(header + "." + body + ".");
        assertThat(outcome.isVerified()).isFalse();
        assertThat(outcome.rejection()).startsWith("not a signed JWT");
    }

    @Test
    void aTokenSignedWithAnotherKeyIsRefused() throws Exception {
        JwtVerifier.Outcome outcome = verifier().verify(rs256(otherRsa, claims().build()));
        assertThat(outcome.isVerified()).isFalse();
        assertThat(outcome.rejection()).isEqualTo("its signature does not verify with key 'k1'");
    }

    @Test
    void hs256WithThePublicKeyAsItsSecretIsRefusedNotTried() throws Exception {
        byte[] publicKey = rsa.toRSAPublicKey().getEncoded();
        SignedJWT forged = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), claims().build());
        forged.sign(new MACSigner(java.util.Arrays.copyOf(publicKey, Math.max(publicKey.length, 32))));
        JwtVerifier.Outcome outcome = verifier().verify(forged.serialize());
        assertThat(outcome.isVerified()).isFalse();
        assertThat(outcome.rejection()).isEqualTo("the token names HS256, which a RSA key does not verify");
    }

    @Test
    void expiredEarlyWrongIssuerWrongAudienceNoSubjectOrNoExpiryIsRefused() throws Exception {
        JwtVerifier verifier = verifier();
        assertThat(verifier.verify(rs256(rsa, claims().expirationTime(Date.from(NOW.minusSeconds(120))).build())).rejection())
                .startsWith("it expired at ");
        // within the minute of skew: still good
        assertThat(verifier.verify(rs256(rsa, claims().expirationTime(Date.from(NOW.minusSeconds(30))).build())).isVerified()).isTrue();
        assertThat(verifier.verify(rs256(rsa, claims().notBeforeTime(Date.from(NOW.plusSeconds(300))).build())).rejection())
                .startsWith("it is not valid before ");
        assertThat(verifier.verify(rs256(rsa, claims().issuer("https://evil.example.com/").build())).rejection())
                .isEqualTo("its issuer is 'https://evil.example.com/', not 'https://idp.example.com/'");
        assertThat(verifier.verify(rs256(rsa, claims().audience("someone-else").build())).rejection())
                .isEqualTo("its audience [someone-else] does not hold 'mcp-tools'");
        assertThat(verifier.verify(rs256(rsa, claims().subject(null).build())).rejection()).isEqualTo("it has no sub");
        assertThat(verifier.verify(rs256(rsa, claims().expirationTime(null).build())).rejection()).isEqualTo("it has no exp");
    }

    @Test
    void anUnknownKidIsLookedUpOnceMoreThenRefusedAndARotatedKeyIsFoundAfterTheWait() throws Exception {
        JwtVerifier verifier = verifier();
        assertThat(verifier.verify(rs256(rsa, claims().build())).isVerified()).isTrue();
        assertThat(fetches).hasValue(1);
        RSAKey rotated = new RSAKeyGenerator(2048).keyID("k2").generate();
        String token = rs256(rotated, claims().subject("carol").build());
        // the set was read a moment ago: not fetched again yet
        assertThat(verifier.verify(token).rejection()).isEqualTo("no key 'k2' for RS256 in the key set");
        assertThat(fetches).hasValue(1);
        served.set(new JWKSet(List.of(rsa.toPublicJWK(), rotated.toPublicJWK())).toString());
        clock.set(NOW.plusSeconds(31));
        // the rejection is kept a minute; a new token of the same key is looked up, and the set is fetched once more
        String fresh = rs256(rotated, claims().subject("carol").jwtID("2").build());
        assertThat(verifier.verify(fresh).caller().sub()).isEqualTo("carol");
        assertThat(fetches).hasValue(2);
        String unknown = rs256(new RSAKeyGenerator(2048).keyID("k3").generate(), claims().build());
        assertThat(verifier.verify(unknown).rejection()).isEqualTo("no key 'k3' for RS256 in the key set");
        assertThat(fetches).hasValue(2);
    }

    @Test
    void aMegabyteTokenIsNotRead() {
        JwtVerifier.Outcome outcome = verifier().verify("a".repeat(1 << 20));
        assertThat(outcome.rejection()).isEqualTo("a token longer than 16384 chars is not read");
        assertThat(fetches).hasValue(0);
    }

    @Test
    void aKeySetThatHangsIsUnavailableWithinTheTimeoutNotAVerdictOnTheToken() throws Exception {
        hangs = true;
        JwtVerifier verifier = verifier("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks", Duration.ofMillis(300));
        long start = System.nanoTime();
        JwtVerifier.Outcome outcome = verifier.verify(rs256(rsa, claims().build()));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
        assertThat(outcome.isUnavailable()).isTrue();
        assertThat(outcome.isVerified()).isFalse();
        assertThat(outcome.unavailable()).startsWith("the key set http://127.0.0.1:");
    }

    @Test
    void aClaimOfAnotherShapeIsNoRoleButStaysAClaim() throws Exception {
        JwtVerifier.Outcome outcome = verifier().verify(rs256(rsa, claims().claim("roles", Map.of("admin", true)).claim("scope", null).build()));
        assertThat(outcome.caller().roles()).isEmpty();
        assertThat(outcome.caller().claims().get("roles")).isEqualTo(Map.of("admin", true));
    }

    @Test
    void aSharedSecretVerifiesFromAKeyFileNeverFromAUrl() throws Exception {
        OctetSequenceKey secret = new OctetSequenceKeyGenerator(256).keyID("s1").generate();
        Files.writeString(dir.resolve("jwks.json"), new JWKSet(secret).toString(false));
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("s1").build(), claims().build());
        jwt.sign(new MACSigner(secret));
        assertThat(verifier("jwks.json", Duration.ofSeconds(1)).verify(jwt.serialize()).isVerified()).isTrue();
        served.set(new JWKSet(secret).toString(false));
        JwtVerifier.Outcome fromUrl = verifier().verify(jwt.serialize());
        assertThat(fromUrl.isUnavailable()).isTrue();
        assertThat(fromUrl.unavailable()).contains("holds a symmetric key");
    }

    /** A clock the test moves. */
    private static final class MutableClock extends Clock {
        private volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
