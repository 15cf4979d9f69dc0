package dev.mcppolicy.policy;

import java.time.Duration;
import java.util.Objects;

/** A rate limit: at most {@code max} calls per {@code window}, counted per {@code scope}. */
public record Limit(String counter, Duration window, long max, Scope scope, Algorithm algorithm) {
    public Limit {
        Objects.requireNonNull(counter, "counter");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(algorithm, "algorithm");
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1: " + max);
        }
        if (window.isNegative() || window.isZero() || window.compareTo(Durations.MAX) > 0) {
            throw new IllegalArgumentException("window must be positive and at most " + Durations.MAX + ": " + window);
        }
    }

    /** The same limit shown the way a policy file writes it: {@code 10 per 1m, scope client}. */
    public String describe() {
        return max + " per " + Durations.format(window) + ", scope " + scope.word();
    }
}
