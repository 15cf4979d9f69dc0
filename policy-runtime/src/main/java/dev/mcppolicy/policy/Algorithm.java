package dev.mcppolicy.policy;

/** How a rate limit counts calls over its window. */
public enum Algorithm {
    /** Exact: never more than {@code max} calls in any interval of length {@code window}. */
    SLIDING("sliding"),
    /** Calendar-aligned windows in UTC; the count resets at each window boundary. */
    FIXED("fixed"),
    /** Burst of {@code max}, refilled continuously at {@code max / window}. */
    TOKEN_BUCKET("token_bucket");

    private final String word;

    Algorithm(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }
}
