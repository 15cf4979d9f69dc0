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
        String caller = firstCallerUse(policy);
        if (caller != null) {
            warnings.add(new PolicyWarning(caller, "the agent reads a verified caller on HTTP servers only (the MCP Java SDK's"
                    + " servlet and modern HTTP transports, Spring AI on WebMvc and WebFlux, the Quarkus MCP server): over stdio, on the"
                    + " Kotlin SDK and on the client side every call is judged unverified (caller.verified is false, caller.* conditions"
                    + " see nothing else, user limits share one budget, (none)); check, explain and test decide them with the caller"
                    + " they are given"));
        }
        return List.copyOf(warnings);
    }

    /** The pointer of the policy's first use of who is calling (issue 32): {@code identity}, a {@code caller.*} condition, a {@code user} limit. */
    private static String firstCallerUse(Policy policy) {
        if (policy.identity().isSet()) {
            return "/identity";
        }
        Map<String, Map<String, ToolRule>> sections = new java.util.LinkedHashMap<>();
        sections.put("/tools", policy.tools());
        sections.put("/resources", policy.resources());
        sections.put("/prompts", policy.prompts());
        for (Map.Entry<String, ServerPolicy> server : policy.servers().entrySet()) {
            String at = "/servers/" + JsonPointers.escape(server.getKey());
            sections.put(at + "/tools", server.getValue().tools());
            sections.put(at + "/resources", server.getValue().resources());
            sections.put(at + "/prompts", server.getValue().prompts());
        }
        for (Map.Entry<String, Map<String, ToolRule>> section : sections.entrySet()) {
            for (Map.Entry<String, ToolRule> rule : section.getValue().entrySet()) {
                String at = section.getKey() + "/" + JsonPointers.escape(rule.getKey());
                List<Condition> require = rule.getValue().require();
                for (int i = 0; i < require.size(); i++) {
                    if (require.get(i).onCaller()) {
                        return at + "/require/" + i;
                    }
                }
                List<Condition> denyIf = rule.getValue().denyIf();
                for (int i = 0; i < denyIf.size(); i++) {
                    if (denyIf.get(i).onCaller()) {
                        return at + "/deny_if/" + i;
                    }
                }
                List<Limit> limits = rule.getValue().limits();
                for (int i = 0; i < limits.size(); i++) {
                    if (limits.get(i).scope() == Scope.USER) {
                        return at + "/limits/" + i;
                    }
                }
            }
        }
        List<Limit> all = policy.allToolsLimits();
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).scope() == Scope.USER) {
                return "/all_tools/limits/" + i;
            }
        }
        return null;
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
