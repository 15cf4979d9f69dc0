package dev.mcppolicy.policy;

import dev.mcppolicy.schema.JsonSchema;
import java.util.List;
import java.util.Objects;

/**
 * The rule for the tools a key of {@code tools} names (an exact name or a glob), and in the same shape
 * for the resources a key of {@code resources} names (a URI or URI glob) and the prompts a key of
 * {@code prompts} names (SPEC §12).
 *
 * @param key the key as written in the policy ({@code run_command}, {@code delete_*})
 * @param action what the rule does with a call that passes its checks
 * @param reason text given to the caller and the log on denial, or {@code null}
 * @param require conditions that must all hold
 * @param denyIf conditions any one of which denies
 * @param limits rate limits of this rule, in policy order
 * @param argumentsSchema a JSON Schema the arguments must satisfy, or {@code null}
 * @param validateInputSchema whether the arguments must satisfy the tool's own advertised input schema
 * @param approval approval settings; {@code null} unless the rule says {@code require_approval}
 * @param mode this rule's mode, or {@code null} to follow the policy's
 * @param result what the rule checks in the answer before the caller sees it (SPEC §13), or {@code null}
 */
public record ToolRule(
        String key,
        Action action,
        String reason,
        List<Condition> require,
        List<Condition> denyIf,
        List<Limit> limits,
        JsonSchema argumentsSchema,
        boolean validateInputSchema,
        Approval approval,
        Mode mode,
        ResultRule result) {

    public ToolRule {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(action, "action");
        require = List.copyOf(require);
        denyIf = List.copyOf(denyIf);
        limits = List.copyOf(limits);
    }

    /** A rule that does not judge results. */
    public ToolRule(String key, Action action, String reason, List<Condition> require, List<Condition> denyIf,
                    List<Limit> limits, JsonSchema argumentsSchema, boolean validateInputSchema, Approval approval, Mode mode) {
        this(key, action, reason, require, denyIf, limits, argumentsSchema, validateInputSchema, approval, mode, null);
    }

    /** The rule {@code {}}: allow, nothing else. */
    public static ToolRule allow(String key) {
        return new ToolRule(key, Action.ALLOW, null, List.of(), List.of(), List.of(), null, false, null, null, null);
    }
}
