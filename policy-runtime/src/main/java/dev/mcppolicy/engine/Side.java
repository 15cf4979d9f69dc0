package dev.mcppolicy.engine;

/** Which end of the MCP connection made the decision. */
public enum Side {
    /** A server deciding whether to run its tool for a caller. */
    SERVER("server"),
    /** A client deciding whether to send a call to an upstream server. */
    CLIENT("client");

    private final String word;

    Side(String word) {
        this.word = word;
    }

    /** The word used in log lines: {@code server} or {@code client}. */
    public String word() {
        return word;
    }
}
