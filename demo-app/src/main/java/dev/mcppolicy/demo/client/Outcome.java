package dev.mcppolicy.demo.client;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.Map;

/**
 * How one tool call ended, as the client saw it: a result, a result flagged {@code isError}, a
 * JSON-RPC error, or a failure of the connection itself.
 */
record Outcome(Kind kind, CallToolResult result, String error) {
    enum Kind { OK, TOOL_ERROR, RPC_ERROR, FAILED }

    static Outcome of(CallToolResult result) {
        return new Outcome(Boolean.TRUE.equals(result.isError()) ? Kind.TOOL_ERROR : Kind.OK, result, null);
    }

    boolean ok() {
        return kind == Kind.OK;
    }

    /** The result's structured content as a map, or an empty map when there is none. */
    @SuppressWarnings("unchecked")
    Map<String, Object> fields() {
        return result != null && result.structuredContent() instanceof Map
                ? (Map<String, Object>) result.structuredContent() : Map.of();
    }

    /** The result's text contents joined by newlines, or the error message. */
    String text() {
        if (result == null) {
            return error;
        }
        StringBuilder text = new StringBuilder();
        for (Content content : result.content()) {
            if (text.length() > 0) {
                text.append('\n');
            }
            text.append(content instanceof TextContent ? ((TextContent) content).text() : content.toString());
        }
        return text.toString();
    }
}
