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
        String sha256) {

    public Policy {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(defaultAction, "defaultAction");
        Objects.requireNonNull(mode, "mode");
        hide = List.copyOf(hide);
        allToolsLimits = List.copyOf(allToolsLimits);
        tools = orderedCopy(tools);
        servers = orderedCopy(servers);
    }

    /**
     * The rule a decision's pointer names ({@code /tools/run_command}, {@code /servers/github/tools/get_issue}),
     * or {@code null} when it names none ({@code (default)}, a limit of {@code all_tools}, ...).
     */
    public ToolRule ruleAt(String pointer) {
        if (pointer == null) {
            return null;
        }
        for (Map.Entry<String, ToolRule> tool : tools.entrySet()) {
            if (pointer.equals("/tools/" + JsonPointers.escape(tool.getKey()))) {
                return tool.getValue();
            }
        }
        for (Map.Entry<String, ServerPolicy> server : servers.entrySet()) {
            String prefix = "/servers/" + JsonPointers.escape(server.getKey()) + "/tools/";
            if (!pointer.startsWith(prefix)) {
                continue;
            }
            for (Map.Entry<String, ToolRule> tool : server.getValue().tools().entrySet()) {
                if (pointer.equals(prefix + JsonPointers.escape(tool.getKey()))) {
                    return tool.getValue();
                }
            }
        }
        return null;
    }

    static <V> Map<String, V> orderedCopy(Map<String, V> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
