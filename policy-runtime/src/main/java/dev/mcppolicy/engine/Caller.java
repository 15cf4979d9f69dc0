package dev.mcppolicy.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who is calling, as the app (or the agent, from a token it verified itself) established it (issue 32): the verified
 * subject, a display name, the roles (authorities, groups, scopes) and the claims. Conditions read it under
 * {@code caller.*}, the {@code user} limit scope counts by its subject, the decision line shows it as {@code user=}.
 *
 * <p>Only a verified caller carries an identity: {@link #unverified()} has no subject, name, roles or claims, so a
 * token nobody verified is never a principal.
 *
 * @param sub the verified subject ({@code sub} claim, or the app's principal name); {@code null} when not verified
 * @param name a display name ({@code name} or {@code preferred_username}), or {@code null}
 * @param roles the caller's roles, authorities, groups and scopes, as the app names them; never {@code null}
 * @param claims the token's claims (or the principal's attributes), JSON-like; never {@code null}
 * @param verified whether the identity was verified (a signed token checked, or the app's authenticated principal)
 */
public record Caller(String sub, String name, List<String> roles, Map<String, ?> claims, boolean verified) {
    private static final Caller UNVERIFIED = new Caller(null, null, List.of(), Map.of(), false);

    public Caller {
        if (!verified) {
            sub = null;
            name = null;
            roles = List.of();
            claims = Map.of();
        } else {
            roles = roles == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(roles));
            claims = claims == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(claims));
        }
    }

    /** No verified identity: the caller conditions see {@code caller.verified == false} and nothing else. */
    public static Caller unverified() {
        return UNVERIFIED;
    }

    /** A verified caller. */
    public static Caller verified(String sub, String name, List<String> roles, Map<String, ?> claims) {
        return new Caller(sub, name, roles, claims, true);
    }

    /**
     * What a {@code caller.*} condition reads: {@code {"caller": {"sub", "name", "roles", "claims", "verified"}}}, absent
     * members left out (a condition on one sees it absent), {@code verified} always there.
     */
    public Map<String, Object> view() {
        Map<String, Object> fields = new LinkedHashMap<>();
        if (sub != null) {
            fields.put("sub", sub);
        }
        if (name != null) {
            fields.put("name", name);
        }
        fields.put("roles", roles);
        fields.put("claims", claims);
        fields.put("verified", verified);
        return Map.of("caller", fields);
    }
}
