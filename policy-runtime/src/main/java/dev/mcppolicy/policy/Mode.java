package dev.mcppolicy.policy;

/** {@code enforce} applies denials; {@code monitor} allows the call and logs what would have been denied. */
public enum Mode {
    ENFORCE("enforce"),
    MONITOR("monitor");

    private final String word;

    Mode(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }
}
