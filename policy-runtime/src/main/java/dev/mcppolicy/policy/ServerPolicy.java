package dev.mcppolicy.policy;

import java.util.List;
import java.util.Map;

/**
 * Client-side rules for the tools of one upstream server, keyed in the policy by its
 * {@code serverInfo.name}.
 *
 * @param defaultAction the default for this server's tools, or {@code null} to use the policy's
 * @param hide names or globs hidden for this server, on top of the policy's {@code hide}
 * @param tools rules by exact name or glob, in policy order
 */
public record ServerPolicy(Action defaultAction, List<String> hide, Map<String, ToolRule> tools) {
    public ServerPolicy {
        hide = List.copyOf(hide);
        tools = Policy.orderedCopy(tools);
    }
}
