package dev.mcppolicy.policy;

/** What a rule (or the policy default) does with a call that passes its checks. */
public enum Action {
    ALLOW("allow"),
    DENY("deny"),
    REQUIRE_APPROVAL("require_approval");

    private final String word;

    Action(String word) {
        this.word = word;
    }

    /** The word used for this action in a policy file. */
    public String word() {
        return word;
    }
}
