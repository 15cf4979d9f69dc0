package dev.mcppolicy.cli;

import dev.mcppolicy.engine.Caller;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A caller as {@code explain --caller JSON} and a {@code test} case's {@code caller:} give it (issue 32):
 * {@code {"sub": ..., "name": ..., "roles": [...], "claims": {...}, "verified": true}}, every member optional.
 * {@code verified} is {@code true} unless it says otherwise; an unverified caller names nothing else (it has no
 * identity: the agent never makes a principal of what it did not verify).
 */
final class CallerArgument {
    private static final Set<String> KEYS = Set.of("sub", "name", "roles", "claims", "verified");

    private CallerArgument() {
    }

    /** The caller {@code value} describes; throws {@link IllegalArgumentException} with what is wrong, after {@code at}. */
    @SuppressWarnings("unchecked")
    static Caller parse(Object value, String at) {
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException(at + ": expected an object {sub, name, roles, claims, verified}");
        }
        Map<String, Object> fields = (Map<String, Object>) value;
        for (String key : fields.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException(at + "/" + key + ": unknown key; expected one of claims, name, roles, sub, verified");
            }
        }
        Object verified = fields.getOrDefault("verified", Boolean.TRUE);
        if (!(verified instanceof Boolean)) {
            throw new IllegalArgumentException(at + "/verified: expected true or false");
        }
        if (!(Boolean) verified) {
            if (fields.size() > 1) {
                throw new IllegalArgumentException(at + ": an unverified caller has no sub, name, roles or claims; give only \"verified\": false");
            }
            return Caller.unverified();
        }
        String sub = text(fields.get("sub"), at + "/sub");
        String name = text(fields.get("name"), at + "/name");
        List<String> roles = new ArrayList<>();
        Object roleList = fields.getOrDefault("roles", List.of());
        if (!(roleList instanceof List)) {
            throw new IllegalArgumentException(at + "/roles: expected an array of strings");
        }
        for (Object role : (List<?>) roleList) {
            if (!(role instanceof String)) {
                throw new IllegalArgumentException(at + "/roles: expected an array of strings");
            }
            roles.add((String) role);
        }
        Object claims = fields.getOrDefault("claims", Map.of());
        if (!(claims instanceof Map)) {
            throw new IllegalArgumentException(at + "/claims: expected an object of claims");
        }
        return Caller.verified(sub, name, roles, (Map<String, ?>) claims);
    }

    private static String text(Object value, String at) {
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw new IllegalArgumentException(at + ": expected a string");
    }
}
