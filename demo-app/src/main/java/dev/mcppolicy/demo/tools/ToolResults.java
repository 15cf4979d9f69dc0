package dev.mcppolicy.demo.tools;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The two shapes a tool answers with. A result carries its fields as {@code structuredContent} and,
 * for clients that read only text, the same object serialized as JSON in one text content.
 */
final class ToolResults {
    private final McpJsonMapper json;

    ToolResults(McpJsonMapper json) {
        this.json = json;
    }

    CallToolResult ok(Map<String, Object> fields) {
        try {
            return CallToolResult.builder()
                    .addTextContent(json.writeValueAsString(fields))
                    .structuredContent(fields)
                    .isError(false)
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static CallToolResult error(String message) {
        return CallToolResult.builder().addTextContent(message).isError(true).build();
    }
}
