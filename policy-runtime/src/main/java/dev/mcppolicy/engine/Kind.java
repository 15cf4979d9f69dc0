package dev.mcppolicy.engine;

/** What a call asks for (SPEC §12): a tool to run, a resource to read, a prompt to get. */
public enum Kind {
    TOOL("tool"),
    RESOURCE("resource"),
    PROMPT("prompt");

    private final String word;

    Kind(String word) {
        this.word = word;
    }

    /** How the decision line and the caller's error name it: {@code tool}, {@code resource}, {@code prompt}. */
    public String word() {
        return word;
    }
}
