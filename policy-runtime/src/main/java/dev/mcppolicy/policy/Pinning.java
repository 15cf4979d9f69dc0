package dev.mcppolicy.policy;

/**
 * Pinned tool definitions (SPEC §14, client side), as a policy or one of its {@code servers} sections sets them.
 *
 * @param pin {@code pin}: whether each server's tool definitions are pinned; {@code null} when the section does not say
 *     (a section then follows the policy, and the policy pins when it names a {@code pins} file)
 * @param pinsFile {@code pins}: the pins file written by {@code scan --pins}, relative to the policy file's directory, or
 *     {@code null}; top level only
 * @param pinNew {@code pin_new}: what a tool not pinned yet gets once its server's tools are pinned; {@code null} when
 *     the section does not say (default {@link Action#DENY})
 */
public record Pinning(Boolean pin, String pinsFile, Action pinNew) {
    /** A policy or section that says nothing of pins. */
    public static final Pinning NONE = new Pinning(null, null, null);

    /** Whether this says anything of pins. */
    public boolean isSet() {
        return pin != null || pinsFile != null || pinNew != null;
    }
}
