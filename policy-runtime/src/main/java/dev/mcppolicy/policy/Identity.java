package dev.mcppolicy.policy;

import java.util.Objects;

/**
 * The policy's {@code identity} section (issue 32): where the agent gets a verified caller when the app has not
 * verified one itself. Today one source, {@code jwt}: the call's {@code Authorization: Bearer} token, verified by the
 * agent against a key set.
 *
 * @param jwt the token's verification, or {@code null} when the policy names no key source
 */
public record Identity(Jwt jwt) {
    /** No {@code identity} section: only the app's own verified principal makes a caller. */
    public static final Identity NONE = new Identity(null);

    public boolean isSet() {
        return jwt != null;
    }

    /**
     * {@code identity.jwt}: a token is a caller only if it is signed by a key of {@code jwks} (with the algorithm the
     * key is for; never {@code none}), unexpired, issued by {@code issuer} and meant for {@code audience}.
     *
     * @param jwks an {@code https://} (or {@code http://} loopback) URL of a JWK set, or a file path (relative to the
     *     policy file's directory) holding one
     * @param issuer the {@code iss} a token must carry
     * @param audience an {@code aud} a token must carry
     */
    public record Jwt(String jwks, String issuer, String audience) {
        public Jwt {
            Objects.requireNonNull(jwks, "jwks");
            Objects.requireNonNull(issuer, "issuer");
            Objects.requireNonNull(audience, "audience");
        }

        /** Whether {@link #jwks} is a URL (fetched, cached, fetched again for an unknown key id) rather than a file. */
        public boolean jwksIsUrl() {
            return jwks.startsWith("https://") || jwks.startsWith("http://");
        }
    }
}
