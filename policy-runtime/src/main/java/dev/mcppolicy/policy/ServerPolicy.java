package dev.mcppolicy.policy;

import java.util.List;
import java.util.Map;

/**
 * Client-side rules for one upstream server, keyed in the policy by its {@code serverInfo.name} (or
 * the address the client reached it at).
 *
 * @param defaultAction the default for this server's tools, or {@code null} to use the policy's
 * @param hide names or globs hidden for this server, on top of the policy's {@code hide}
 * @param tools rules by exact name or glob, in policy order
 * @param resources resource rules by URI or URI glob (SPEC §12), in policy order
 * @param prompts prompt rules by name or glob, in policy order
 * @param resourceDefault the default for this server's resources, or {@code null} to use the policy's
 * @param promptDefault the default for this server's prompts, or {@code null} to use the policy's
 * @param pinning this server's {@code pin} and {@code pin_new} (SPEC §14); {@link Pinning#NONE} to follow the policy's
 */
public record ServerPolicy(Action defaultAction, List<String> hide, Map<String, ToolRule> tools,
                           Map<String, ToolRule> resources, Map<String, ToolRule> prompts,
                           Action resourceDefault, Action promptDefault, Pinning pinning) {
    public ServerPolicy {
        hide = List.copyOf(hide);
        pinning = pinning == null ? Pinning.NONE : pinning;
        tools = Policy.orderedCopy(tools);
        resources = Policy.orderedCopy(resources);
        prompts = Policy.orderedCopy(prompts);
    }

    /** A section with tool rules only. */
    public ServerPolicy(Action defaultAction, List<String> hide, Map<String, ToolRule> tools) {
        this(defaultAction, hide, tools, Map.of(), Map.of(), null, null, Pinning.NONE);
    }

    /** A section that says nothing of pins. */
    public ServerPolicy(Action defaultAction, List<String> hide, Map<String, ToolRule> tools, Map<String, ToolRule> resources,
                        Map<String, ToolRule> prompts, Action resourceDefault, Action promptDefault) {
        this(defaultAction, hide, tools, resources, prompts, resourceDefault, promptDefault, Pinning.NONE);
    }
}
