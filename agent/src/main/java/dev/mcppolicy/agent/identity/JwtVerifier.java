package dev.mcppolicy.agent.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.AsymmetricJWK;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyType;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.mcppolicy.engine.Caller;
import dev.mcppolicy.policy.Identity;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Verifies a call's {@code Authorization: Bearer} token against the policy's {@code identity.jwt} (issue 32), with
 * Nimbus JOSE+JWT (relocated into the agent, loaded only when a policy names a key source). A token is a caller only
 * when all of this holds, else it is {@link Outcome#rejected} and the call has no verified caller:
 * <ul>
 *   <li>at most {@value #MAX_TOKEN_CHARS} chars (a longer one is not parsed);</li>
 *   <li>a JWS (never {@code alg: none}) signed with an algorithm of the family of the key its {@code kid} names (an
 *       RSA key verifies RS/PS, an EC key ES, an OKP key EdDSA; a symmetric key HS, and only from a key file): a
 *       token that names HS256 to be checked with an RSA public key as its secret is refused, not tried;</li>
 *   <li>a key with that {@code kid} in the set (an unknown one makes a URL set be fetched again once, at most every
 *       {@link #REFETCH_AFTER}; still unknown, refused); a key whose {@code use} is not {@code sig} is not used;</li>
 *   <li>{@code exp} present and not past, {@code nbf} not ahead (both with {@link #SKEW}), {@code iss} equal to the
 *       policy's, {@code aud} holding the policy's, a {@code sub}.</li>
 * </ul>
 * A key set that cannot be read (a URL that does not answer within the timeout, a file that is missing or malformed)
 * is {@link Outcome#unavailable}: the call is then decided by {@code on_error}, never let through as verified.
 *
 * <p>Each token is verified once: its outcome is kept (at most {@value #CACHED} tokens) until the token expires,
 * and a rejection for a minute, so an agent that retries in a loop costs a map lookup.
 */
public final class JwtVerifier {
    /** The longest token read: a header, claims and an RSA-4096 signature fit in a tenth of it. */
    public static final int MAX_TOKEN_CHARS = 16 * 1024;
    /** How many tokens' outcomes are kept. */
    static final int CACHED = 10_000;
    /** How far a token's clock may be off ours. */
    static final Duration SKEW = Duration.ofSeconds(60);
    /** The least time between two fetches of a key set for an unknown {@code kid}. */
    static final Duration REFETCH_AFTER = Duration.ofSeconds(30);
    /** How long a rejection is kept: a token refused now is refused a minute later too (it will not verify sooner). */
    static final Duration REJECTION_KEPT = Duration.ofMinutes(1);

    private final Identity.Jwt config;
    private final Path policyDirectory;
    private final Duration timeout;
    private final Clock clock;
    private final Cache<String, Outcome> outcomes;
    private volatile Keys keys;
    private volatile HttpClient http;

    /**
     * @param policyDirectory where a key file's relative path starts
     * @param timeout how long a key set URL may take to answer (connect and read)
     */
    public JwtVerifier(Identity.Jwt config, Path policyDirectory, Duration timeout, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.policyDirectory = policyDirectory;
        this.timeout = timeout;
        this.clock = clock;
        this.outcomes = Caffeine.newBuilder().maximumSize(CACHED).build();
    }

    /**
     * What a token is: a verified caller, a rejection (the call has no verified caller), or a key set that cannot be
     * read (the call is decided by {@code on_error}). {@code keptUntil}: until when, in epoch millis, the cache may answer
     * with it (a verified token's expiry, a rejection's minute).
     */
    public record Outcome(Caller caller, String rejection, String unavailable, long keptUntil) {
        static Outcome verified(Caller caller, long until) {
            return new Outcome(caller, null, null, until);
        }

        static Outcome rejected(String why, long until) {
            return new Outcome(Caller.unverified(), why, null, until);
        }

        static Outcome unavailable(String why) {
            return new Outcome(Caller.unverified(), null, why, 0);
        }

        public boolean isVerified() {
            return caller.verified();
        }

        /** Whether the key set could not be read: the call is decided by {@code on_error}. */
        public boolean isUnavailable() {
            return unavailable != null;
        }
    }

    /** The outcome for {@code token} (the text after {@code Bearer }), from the cache when it was verified before. */
    public Outcome verify(String token) {
        if (token == null || token.isEmpty()) {
            return Outcome.rejected("no token", 0);
        }
        if (token.length() > MAX_TOKEN_CHARS) {
            // not kept: a megabyte key would hold a megabyte
            return Outcome.rejected("a token longer than " + MAX_TOKEN_CHARS + " chars is not read", 0);
        }
        long now = clock.millis();
        Outcome known = outcomes.getIfPresent(token);
        if (known != null && now < known.keptUntil()) {
            return known;
        }
        Outcome outcome = verifyNow(token, now);
        if (!outcome.isUnavailable()) {
            outcomes.put(token, outcome);
        }
        return outcome;
    }

    private Outcome verifyNow(String token, long now) {
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(token);
        } catch (ParseException e) {
            return reject("not a signed JWT (" + e.getMessage() + ")", now);
        }
        JWSHeader header = jwt.getHeader();
        JWSAlgorithm algorithm = header.getAlgorithm();
        String kid = header.getKeyID();
        JWK key;
        try {
            key = key(kid, now);
        } catch (KeysUnavailable e) {
            return Outcome.unavailable(e.getMessage());
        }
        if (key == null) {
            return reject("no key " + (kid == null ? "without a kid" : "'" + kid + "'") + " for " + algorithm + " in the key set", now);
        }
        String family = family(algorithm, key);
        if (family != null) {
            return reject(family, now);
        }
        try {
            Key verifying = key instanceof AsymmetricJWK asymmetric ? asymmetric.toPublicKey() : ((OctetSequenceKey) key).toSecretKey();
            JWSVerifier verifier = new DefaultJWSVerifierFactory().createJWSVerifier(header, verifying);
            if (!jwt.verify(verifier)) {
                return reject("its signature does not verify with key '" + key.getKeyID() + "'", now);
            }
        } catch (JOSEException | RuntimeException e) {
            return reject("its signature cannot be checked (" + e.getMessage() + ")", now);
        }
        JWTClaimsSet claims;
        try {
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            return reject("its claims are not a JSON object", now);
        }
        String invalid = claimsProblem(claims, now);
        if (invalid != null) {
            return reject(invalid, now);
        }
        Map<String, Object> plain = new LinkedHashMap<>(claims.toJSONObject());
        long until = claims.getExpirationTime().getTime() + SKEW.toMillis();
        return Outcome.verified(Caller.verified(claims.getSubject(), name(plain), roles(plain), plain), until);
    }

    private static Outcome reject(String why, long now) {
        return Outcome.rejected(why, now + REJECTION_KEPT.toMillis());
    }

    /** What is wrong with a signed token's claims, or {@code null}. */
    private String claimsProblem(JWTClaimsSet claims, long now) {
        Date exp = claims.getExpirationTime();
        if (exp == null) {
            return "it has no exp";
        }
        if (now >= exp.getTime() + SKEW.toMillis()) {
            return "it expired at " + exp.toInstant();
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && now + SKEW.toMillis() < nbf.getTime()) {
            return "it is not valid before " + nbf.toInstant();
        }
        if (!config.issuer().equals(claims.getIssuer())) {
            return "its issuer is " + quoted(claims.getIssuer()) + ", not " + quoted(config.issuer());
        }
        List<String> audience = claims.getAudience();
        if (audience == null || !audience.contains(config.audience())) {
            return "its audience " + audience + " does not hold " + quoted(config.audience());
        }
        if (claims.getSubject() == null || claims.getSubject().isEmpty()) {
            return "it has no sub";
        }
        return null;
    }

    private static String quoted(String text) {
        return text == null ? "(none)" : "'" + text + "'";
    }

    /** Why {@code algorithm} may not be checked with {@code key}, or {@code null} when it may. */
    private static String family(JWSAlgorithm algorithm, JWK key) {
        if (key.getAlgorithm() != null && !key.getAlgorithm().getName().equals(algorithm.getName())) {
            return "key '" + key.getKeyID() + "' is for " + key.getAlgorithm() + ", the token names " + algorithm;
        }
        if (key.getKeyUse() != null && key.getKeyUse() != KeyUse.SIGNATURE) {
            return "key '" + key.getKeyID() + "' is not a signing key (use " + key.getKeyUse().identifier() + ")";
        }
        KeyType type = key.getKeyType();
        boolean fits = JWSAlgorithm.Family.RSA.contains(algorithm) ? type == KeyType.RSA
                : JWSAlgorithm.Family.EC.contains(algorithm) ? type == KeyType.EC
                : JWSAlgorithm.Family.ED.contains(algorithm) ? type == KeyType.OKP
                : JWSAlgorithm.Family.HMAC_SHA.contains(algorithm) && type == KeyType.OCT;
        return fits ? null : "the token names " + algorithm + ", which a " + type + " key does not verify";
    }

    /** The key {@code kid} names, fetching a URL's set again (once, rate-limited) when it is not there. */
    private JWK key(String kid, long now) throws KeysUnavailable {
        Keys current = keys;
        if (current == null) {
            current = load(now);
        }
        JWK found = find(current.set, kid);
        if (found == null && config.jwksIsUrl() && now - current.readAt >= REFETCH_AFTER.toMillis()) {
            found = find(load(now).set, kid);
        }
        return found;
    }

    private static JWK find(JWKSet set, String kid) {
        if (kid != null) {
            return set.getKeyByKeyId(kid);
        }
        // no kid: only a set of one signing key names it unambiguously
        List<JWK> keys = set.getKeys();
        return keys.size() == 1 ? keys.get(0) : null;
    }

    private synchronized Keys load(long now) throws KeysUnavailable {
        Keys current = keys;
        if (current != null && now - current.readAt < REFETCH_AFTER.toMillis()) {
            return current;
        }
        JWKSet set;
        try {
            String text = config.jwksIsUrl() ? fetch(config.jwks()) : Files.readString(resolve(config.jwks()), StandardCharsets.UTF_8);
            set = JWKSet.parse(text);
        } catch (IOException | ParseException e) {
            if (current != null) {
                // the set read before still holds its keys; a kid it lacks stays unknown until the set reads again
                return current;
            }
            throw new KeysUnavailable("the key set " + config.jwks() + " cannot be read: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeysUnavailable("reading the key set " + config.jwks() + " was interrupted");
        }
        if (config.jwksIsUrl()) {
            for (JWK key : set.getKeys()) {
                if (key.getKeyType() == KeyType.OCT) {
                    throw new KeysUnavailable("the key set " + config.jwks() + " holds a symmetric key: a shared secret is never"
                            + " published; name it in a key file instead");
                }
            }
        }
        Keys read = new Keys(set, now);
        keys = read;
        return read;
    }

    private Path resolve(String file) {
        Path path = Path.of(file);
        return path.isAbsolute() || policyDirectory == null ? path : policyDirectory.resolve(path);
    }

    private String fetch(String url) throws IOException, InterruptedException {
        HttpClient client = http;
        if (client == null) {
            client = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
            http = client;
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(timeout).header("Accept", "application/json").GET().build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode());
        }
        return response.body();
    }

    /** A set as read, and when. */
    private record Keys(JWKSet set, long readAt) {
    }

    /** The key set could not be read. */
    private static final class KeysUnavailable extends Exception {
        private static final long serialVersionUID = 1L;

        KeysUnavailable(String message) {
            super(message, null, false, false);
        }
    }

    /** {@code name}, else {@code preferred_username}, as strings. */
    private static String name(Map<String, Object> claims) {
        Object name = claims.get("name");
        if (!(name instanceof String)) {
            name = claims.get("preferred_username");
        }
        return name instanceof String text ? text : null;
    }

    /**
     * The roles: {@code roles} and {@code groups} (arrays of strings), {@code scope} (space-separated, OAuth 2.0) and
     * {@code scp} (an array or a string), in that order, each once. Members of another type are left out (the claims
     * still hold them, for a condition on {@code caller.claims}).
     */
    static List<String> roles(Map<String, Object> claims) {
        Set<String> roles = new LinkedHashSet<>();
        for (String claim : List.of("roles", "groups", "scope", "scp")) {
            Object value = claims.get(claim);
            if (value instanceof String text) {
                for (String word : text.trim().split("\\s+")) {
                    if (!word.isEmpty()) {
                        roles.add(word);
                    }
                }
            } else if (value instanceof Collection<?> items) {
                for (Object item : items) {
                    if (item instanceof String text) {
                        roles.add(text);
                    }
                }
            }
        }
        return new ArrayList<>(roles);
    }
}
