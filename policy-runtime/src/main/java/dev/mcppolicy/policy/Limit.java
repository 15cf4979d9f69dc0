package dev.mcppolicy.policy;

import java.time.Duration;
import java.util.Objects;

/**
 * A rate limit: at most {@code max} calls per {@code window}, counted per {@code scope}.
 *
 * @param counter the name of the state it counts in: limits with the same name share it (and agree on
 *     the rest); see {@link #unnamed} for a limit whose policy gives none
 */
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

    /**
     * A limit the policy gives no {@code counter}, named by where it is and what it is: its rule's JSON
     * Pointer without the leading slash, then {@code :max/window/scope/algorithm}, as in
     * {@code tools/run_command:10/1m/client/sliding}, {@code all_tools:600/1m/global/sliding} or
     * {@code servers/github/tools/get_issue:5/1h/session/fixed}. The window is written the one way
     * {@link Durations#format} writes it ({@code minute}, {@code 60} and {@code 1m} are all {@code 1m})
     * and {@code grant} as {@code client}. So the name stays when limits are reordered or rules are
     * added, unnamed limits of two rules never share a name (a pointer escapes {@code /} and {@code ~} in
     * tool and server names), and two equal unnamed limits of one rule are one counter, which admits
     * exactly the calls the two would. Changing an unnamed limit's settings makes it a new counter.
     *
     * @param rule the JSON Pointer of the rule, or {@code /all_tools}
     */
    public static Limit unnamed(String rule, Duration window, long max, Scope scope, Algorithm algorithm) {
        String name = rule.substring(1) + ":" + max + "/" + Durations.format(window) + "/" + scope.word() + "/" + algorithm.word();
        return new Limit(name, window, max, scope, algorithm);
    }

    /** The same limit shown the way a policy file writes it: {@code 10 per 1m, scope client}. */
    public String describe() {
        return max + " per " + Durations.format(window) + ", scope " + scope.word();
    }
}
