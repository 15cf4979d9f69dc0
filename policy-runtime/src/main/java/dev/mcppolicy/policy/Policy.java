package dev.mcppolicy.policy;

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

    static <V> Map<String, V> orderedCopy(Map<String, V> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
