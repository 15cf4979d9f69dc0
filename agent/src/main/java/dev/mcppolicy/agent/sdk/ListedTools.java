package dev.mcppolicy.agent.sdk;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.engine.Side;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Client side: the tools each client has listed ({@code McpSchema.Tool} records by name, of the classic or the modern
 * API), for rules that validate arguments against the tool's advertised {@code inputSchema}. Weak keys: a closed
 * client and its tools go away together.
 */
public final class ListedTools {
    private final Map<Object, Map<String, Object>> byClient = Collections.synchronizedMap(new WeakHashMap<>());

    /** Remembers the tools of a {@code ListToolsResult} the client {@code client} got; a failure is an advice error only. */
    public void remember(Object client, Object listToolsResult, String where) {
        try {
            Map<String, Object> tools = byClient.computeIfAbsent(client, key -> new ConcurrentHashMap<>());
            ToolLists.forEachTool(listToolsResult, (name, tool) -> {
                if (name != null) {
                    tools.put(name, tool);
                }
            });
        } catch (Throwable t) {
            Diagnostics.adviceError(where + " (remembering input schemas)", t);
        }
    }

    /**
     * The {@code inputSchema} of a tool this client has listed, when the rule needs it; {@code null} otherwise, and for
     * a tool the client called without listing it first (the rule then denies: its arguments cannot be checked).
     */
    public Map<String, ?> inputSchema(PolicySnapshot policy, Object client, String server, String tool) {
        if (!policy.needsInputSchema(Side.CLIENT, server, tool)) {
            return null;
        }
        Map<String, Object> tools = byClient.get(client);
        Object listed = tools == null ? null : tools.get(tool);
        return listed == null ? null : ToolLists.inputSchemaOf(listed);
    }
}
