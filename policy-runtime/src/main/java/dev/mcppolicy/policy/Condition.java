package dev.mcppolicy.policy;

import java.util.Objects;

/**
 * One test on the call's arguments: {@code path} is a dot path ({@code a.b.0.c}) into the arguments,
 * {@code value} is JSON-like ({@code String}, {@code Number}, {@code Boolean}, {@code List}, {@code Map}
 * or {@code null}). For {@link Op#EXISTS} the value is a {@code Boolean} (true unless written otherwise).
 */
public record Condition(String path, Op op, Object value) {
    public Condition {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(op, "op");
    }
}
