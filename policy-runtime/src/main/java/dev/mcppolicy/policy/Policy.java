package dev.mcppolicy.policy;

import dev.mcppolicy.json.JsonPointers;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A parsed, validated policy. Immutable. Build one with {@link PolicyParser}.
 *
 * @param version the format version ({@code "1"})
 * @param defaultAction {@link Action#ALLOW} or {@link Action#DENY}, for tools no rule names
 * @param mode the policy-wide mode
 * @param hide names or globs removed from tool lists and denied if called
 * @param allToolsLimits limits every call counts against
 * @param tools rules by exact name or glob, in policy order
 * @param servers client-side sections by upstream {@code serverInfo.name}
 * @param resources resource rules by URI or URI glob (SPEC §12), in policy order
 * @param prompts prompt rules by name or glob, in policy order
 * @param resourceDefault {@link Action#ALLOW} or {@link Action#DENY}, for resources no rule names
 * @param promptDefault {@link Action#ALLOW} or {@link Action#DENY}, for prompts no rule names
 * @param pinning {@code pin}, {@code pins} and {@code pin_new} (SPEC §14, client side)
 * @param identity where a verified caller comes from when the app has none ({@code identity.jwt}, issue 32)
 * @param sha256 hex SHA-256 of the policy source, or {@code null} for a policy built in code
 */
public record Policy(
        String version,
        Action defaultAction,
        Mode mode,
        List<String> hide,
        List<Limit> allToolsLimits,
        Map<String, ToolRule> tools,
        Map<String, ServerPolicy> servers,
        Map<String, ToolRule> resources,
        Map<String, ToolRule> prompts,
        Action resourceDefault,
        Action promptDefault,
        Pinning pinning,
        Identity identity,
        String sha256) {

    public Policy {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(defaultAction, "defaultAction");
        Objects.requireNonNull(mode, "mode");
        hide = List.copyOf(hide);
        allToolsLimits = List.copyOf(allToolsLimits);
        tools = orderedCopy(tools);
        servers = orderedCopy(servers);
        resources = orderedCopy(resources);
        prompts = orderedCopy(prompts);
        Objects.requireNonNull(resourceDefault, "resourceDefault");
        Objects.requireNonNull(promptDefault, "promptDefault");
        pinning = pinning == null ? Pinning.NONE : pinning;
        identity = identity == null ? Identity.NONE : identity;
    }

    /** A policy with no {@code identity} section. */
    public Policy(String version, Action defaultAction, Mode mode, List<String> hide, List<Limit> allToolsLimits,
                  Map<String, ToolRule> tools, Map<String, ServerPolicy> servers, Map<String, ToolRule> resources,
                  Map<String, ToolRule> prompts, Action resourceDefault, Action promptDefault, Pinning pinning, String sha256) {
        this(version, defaultAction, mode, hide, allToolsLimits, tools, servers, resources, prompts, resourceDefault,
                promptDefault, pinning, Identity.NONE, sha256);
    }

    /** A policy that says nothing of pins. */
    public Policy(String version, Action defaultAction, Mode mode, List<String> hide, List<Limit> allToolsLimits,
                  Map<String, ToolRule> tools, Map<String, ServerPolicy> servers, Map<String, ToolRule> resources,
                  Map<String, ToolRule> prompts, Action resourceDefault, Action promptDefault, String sha256) {
        this(version, defaultAction, mode, hide, allToolsLimits, tools, servers, resources, prompts, resourceDefault,
                promptDefault, Pinning.NONE, sha256);
    }

    /** A policy with tool rules only: resources and prompts are allowed (SPEC §12: absent sections change nothing). */
    public Policy(String version, Action defaultAction, Mode mode, List<String> hide, List<Limit> allToolsLimits,
                  Map<String, ToolRule> tools, Map<String, ServerPolicy> servers, String sha256) {
        this(version, defaultAction, mode, hide, allToolsLimits, tools, servers, Map.of(), Map.of(), Action.ALLOW,
                Action.ALLOW, Pinning.NONE, sha256);
    }

    /** Whether the policy or any of its {@code servers} sections pins tool definitions (SPEC §14). */
    public boolean pinsTools() {
        if (pinning.isSet()) {
            return true;
        }
        for (ServerPolicy section : servers.values()) {
            if (section.pinning().isSet()) {
                return true;
            }
        }
        return false;
    }

    /** Whether the policy has any resource or prompt rule or default other than allow, anywhere. */
    public boolean policesResourcesOrPrompts() {
        if (!resources.isEmpty() || !prompts.isEmpty() || resourceDefault != Action.ALLOW || promptDefault != Action.ALLOW) {
            return true;
        }
        for (ServerPolicy section : servers.values()) {
            if (!section.resources().isEmpty() || !section.prompts().isEmpty()
                    || section.resourceDefault() == Action.DENY || section.promptDefault() == Action.DENY) {
                return true;
            }
        }
        return false;
    }

    /**
     * The rule a decision's pointer names ({@code /tools/run_command}, {@code /servers/github/tools/get_issue},
     * {@code /resources/file:~1~1~1public~1*}),
     * or {@code null} when it names none ({@code (default)}, a limit of {@code all_tools}, ...).
     */
    public ToolRule ruleAt(String pointer) {
        if (pointer == null) {
            return null;
        }
        ToolRule rule = ruleAt(pointer, "", tools, resources, prompts);
        for (Map.Entry<String, ServerPolicy> server : servers.entrySet()) {
            if (rule != null) {
                return rule;
            }
            ServerPolicy section = server.getValue();
            rule = ruleAt(pointer, "/servers/" + JsonPointers.escape(server.getKey()), section.tools(), section.resources(),
                    section.prompts());
        }
        return rule;
    }

    private static ToolRule ruleAt(String pointer, String base, Map<String, ToolRule> tools, Map<String, ToolRule> resources,
                                   Map<String, ToolRule> prompts) {
        if (!pointer.startsWith(base)) {
            return null;
        }
        ToolRule rule = ruleIn(pointer, base + "/tools/", tools);
        if (rule == null) {
            rule = ruleIn(pointer, base + "/resources/", resources);
        }
        return rule != null ? rule : ruleIn(pointer, base + "/prompts/", prompts);
    }

    private static ToolRule ruleIn(String pointer, String prefix, Map<String, ToolRule> rules) {
        if (!pointer.startsWith(prefix)) {
            return null;
        }
        for (Map.Entry<String, ToolRule> rule : rules.entrySet()) {
            if (pointer.equals(prefix + JsonPointers.escape(rule.getKey()))) {
                return rule.getValue();
            }
        }
        return null;
    }

    static <V> Map<String, V> orderedCopy(Map<String, V> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
