package dev.mcppolicy.policy;

import java.util.List;
import java.util.Objects;

/**
 * One test on the call's arguments: {@code path} is a dot path ({@code a.b.0.c}) into the arguments,
 * {@code value} is JSON-like ({@code String}, {@code Number}, {@code Boolean}, {@code List}, {@code Map}
 * or {@code null}). For {@link Op#EXISTS} the value is a {@code Boolean} (true unless written otherwise).
 * A path that starts with {@code caller.} tests who is calling instead (issue 32): {@link #CALLER_FIELDS}.
 */
public record Condition(String path, Op op, Object value) {
    /** The fields a condition may name after {@code caller.}; {@code claims} takes a claim's name after it. */
    public static final List<String> CALLER_FIELDS = List.of("sub", "name", "roles", "claims", "verified");

    public Condition {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(op, "op");
    }

    /** Whether this condition tests the caller ({@code caller.*}) rather than the arguments. */
    public boolean onCaller() {
        return isCallerPath(path);
    }

    /** Whether {@code path} names the caller: {@code caller} or {@code caller.*} (the argument named caller is {@code args.caller}). */
    public static boolean isCallerPath(String path) {
        return path.equals("caller") || path.startsWith("caller.");
    }
}
