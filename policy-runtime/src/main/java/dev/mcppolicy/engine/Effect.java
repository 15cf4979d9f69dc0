package dev.mcppolicy.engine;

/** What happens to a call. */
public enum Effect {
    ALLOW,
    DENY,
    /**
     * The call passed every check and took its rate-limit units, and may run once a human approves it
     * (SPEC §6). A caller that has no way to ask for approval must treat it as {@link #DENY}.
     */
    REQUIRE_APPROVAL
}
