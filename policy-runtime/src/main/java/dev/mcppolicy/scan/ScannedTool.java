package dev.mcppolicy.scan;

import java.util.Map;

/**
 * One tool as a server's {@code tools/list} described it: what the categorizer reads.
 *
 * @param name        the tool's name
 * @param description its description, or {@code null}
 * @param annotations its {@code annotations} object ({@code readOnlyHint}, {@code destructiveHint}, ...), or {@code null}
 * @param inputSchema its {@code inputSchema}, or {@code null}
 */
public record ScannedTool(String name, String description, Map<String, ?> annotations, Map<String, ?> inputSchema) {
    /** Whether the advertised schema names any argument: validating against {@code {"type":"object"}} checks little. */
    public boolean schemaNamesArguments() {
        return inputSchema != null && inputSchema.get("properties") instanceof Map<?, ?> properties && !properties.isEmpty();
    }
}
