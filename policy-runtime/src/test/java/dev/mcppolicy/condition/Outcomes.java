package dev.mcppolicy.condition;

import dev.mcppolicy.policy.Condition;
import java.util.Map;

/**
 * A condition's outcome on some arguments, from its two places in a rule: {@code T} when it holds (a
 * {@code require} lets the call on, a {@code deny_if} stops it), {@code F} when it does not (the other
 * way round), {@code U} when it cannot be checked (both stop the call). Both letting the call on would
 * let a value through one of them: {@code X}, which no test expects.
 */
public final class Outcomes {
    private Outcomes() {
    }

    public static String of(Condition condition, Map<String, ?> arguments, int cap) {
        ArgumentCondition.Stop require = new ArgumentCondition(condition, ArgumentCondition.Role.REQUIRE, cap).check(arguments);
        ArgumentCondition.Stop denyIf = new ArgumentCondition(condition, ArgumentCondition.Role.DENY_IF, cap).check(arguments);
        if (require == null) {
            return denyIf == null ? "X" : "T";
        }
        return denyIf == null ? "F" : "U";
    }
}
