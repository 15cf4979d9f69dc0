package dev.mcppolicy.agent.identity;

import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.policy.Identity;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * The policy's {@code identity.jwt} at a transport's edge (issue 32): the {@link JwtVerifier} of the policy in force,
 * made when a policy first names a key source and again when a reload changes it. Only this class names
 * {@link JwtVerifier} (and so Nimbus): a JVM whose policy has no {@code identity} never loads either.
 */
public final class JwtIdentity {
    /** How long a key set URL may take to answer; past it the call is decided by {@code on_error}. */
    static final Duration KEY_SET_TIMEOUT = Duration.ofSeconds(2);

    private static volatile Object[] current;

    private JwtIdentity() {
    }

    /**
     * What the {@code Authorization} header's Bearer token makes of the caller under {@code policy}'s
     * {@code identity.jwt}: {@link CallerOutcome#NONE} when the policy names no key source or the header holds no
     * Bearer token.
     */
    public static CallerOutcome of(PolicySnapshot policy, String authorization) {
        Identity.Jwt jwt = policy.engine().policy().identity().jwt();
        if (jwt == null || authorization == null) {
            return CallerOutcome.NONE;
        }
        String header = authorization.strip();
        if (header.length() < 7 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return CallerOutcome.NONE;
        }
        JwtVerifier.Outcome outcome = verifier(policy, jwt).verify(header.substring(7).strip());
        if (outcome.isUnavailable()) {
            return CallerOutcome.unavailable(outcome.unavailable());
        }
        return outcome.isVerified() ? CallerOutcome.of(outcome.caller()) : CallerOutcome.rejected(outcome.rejection());
    }

    private static JwtVerifier verifier(PolicySnapshot policy, Identity.Jwt jwt) {
        Path directory = policy.path() == null ? null : policy.path().toAbsolutePath().getParent();
        Object[] known = current;
        if (known != null && known[0].equals(jwt) && java.util.Objects.equals(known[1], directory)) {
            return (JwtVerifier) known[2];
        }
        synchronized (JwtIdentity.class) {
            known = current;
            if (known != null && known[0].equals(jwt) && java.util.Objects.equals(known[1], directory)) {
                return (JwtVerifier) known[2];
            }
            JwtVerifier made = new JwtVerifier(jwt, directory, KEY_SET_TIMEOUT, Clock.systemUTC());
            current = new Object[] {jwt, directory, made};
            return made;
        }
    }
}
