package dev.mcppolicy.policy;

/** The operators of a {@link Condition}. */
public enum Op {
    EQ("eq"),
    NEQ("neq"),
    IN("in"),
    NOT_IN("not_in"),
    LT("lt"),
    LTE("lte"),
    GT("gt"),
    GTE("gte"),
    REGEX("regex"),
    CONTAINS("contains"),
    EXISTS("exists"),
    MAX_LENGTH("max_length");

    private final String word;

    Op(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }
}
