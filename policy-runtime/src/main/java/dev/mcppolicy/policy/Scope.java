package dev.mcppolicy.policy;

/** Whose budget a rate limit counts. {@code grant} in a policy file is an alias of {@link #CLIENT}. */
public enum Scope {
    /** One budget for the whole JVM (or, with a shared store, the fleet). */
    GLOBAL("global"),
    /** One budget per MCP session. */
    SESSION("session"),
    /** One budget per client identity; survives reconnects. */
    CLIENT("client"),
    /**
     * One budget per verified caller, by its subject (issue 32); every call without a verified caller shares one,
     * {@code (none)}.
     */
    USER("user");

    private final String word;

    Scope(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }
}
