package dev.mcppolicy.policy;

import dev.mcppolicy.json.JsonPointers;
import dev.mcppolicy.text.DisplayText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds what a valid policy allows but probably should not: today, an execute-like or destructive tool
 * (by {@link ToolRisk}) that an {@code allow} rule guards with {@code deny_if} alone, with no
 * {@code require} and no {@code arguments}. A deny list only stops the spellings it names; another
 * spelling, quoting, or the value split across an array gets through. Rules that say {@code deny} or
 * {@code require_approval} are not questioned: the first runs nothing, the second shows each call to a
 * human.
 *
 * <p>Pure: it prints nothing, so each caller reports the warnings its own way ({@code check} prints them;
 * the agent logs them at start-up).
 */
public final class PolicyLint {
    /** The most chars of a tool key a message shows. */
    static final int NAME_CAP = 256;

    private PolicyLint() {
    }

    /** Every warning for {@code policy}: top-level {@code tools} in policy order, then each server's, in policy order. */
    public static List<PolicyWarning> warnings(Policy policy) {
        List<PolicyWarning> warnings = new ArrayList<>();
        checkRules(policy.tools(), "/tools", warnings);
        for (Map.Entry<String, ServerPolicy> server : policy.servers().entrySet()) {
            checkRules(server.getValue().tools(), "/servers/" + JsonPointers.escape(server.getKey()) + "/tools", warnings);
        }
        return List.copyOf(warnings);
    }

    private static void checkRules(Map<String, ToolRule> rules, String at, List<PolicyWarning> warnings) {
        for (Map.Entry<String, ToolRule> entry : rules.entrySet()) {
            ToolRule rule = entry.getValue();
            if (!guardedByDenyIfAlone(rule)) {
                continue;
            }
            ToolRisk risk = ToolRisk.classify(entry.getKey());
            if (risk == ToolRisk.EXECUTE || risk == ToolRisk.DESTRUCTIVE) {
                String pointer = at + "/" + JsonPointers.escape(entry.getKey()) + "/deny_if";
                warnings.add(new PolicyWarning(pointer, denyIfAloneMessage(entry.getKey(), risk)));
            }
        }
    }

    private static boolean guardedByDenyIfAlone(ToolRule rule) {
        return rule.action() == Action.ALLOW && !rule.denyIf().isEmpty() && rule.require().isEmpty()
                && rule.argumentsSchema() == null && !rule.validateInputSchema();
    }

    private static String denyIfAloneMessage(String key, ToolRisk risk) {
        StringBuilder message = new StringBuilder("'");
        DisplayText.appendQuoted(key, '\'', NAME_CAP, message);
        message.append(risk == ToolRisk.EXECUTE ? "' looks like it runs commands" : "' looks destructive");
        return message.append(" and only deny_if guards it; a deny list misses what it does not name (another spelling,"
                        + " quoting, or the value split across an array), so add \"require\" (an allow list of ")
                .append(risk == ToolRisk.EXECUTE ? "what may run" : "what it may act on")
                .append(") or \"arguments\": \"input_schema\"")
                .toString();
    }
}
