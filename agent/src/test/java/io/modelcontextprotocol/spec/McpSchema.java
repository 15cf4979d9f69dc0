package io.modelcontextprotocol.spec;

/** Stands in for the SDK's {@code McpSchema} in the weaving tests: the client's read hook matches its request type by name. */
public final class McpSchema {
    private McpSchema() {
    }

    /** Like the SDK's {@code ReadResourceRequest}. */
    public record ReadResourceRequest(String uri) {
    }
}
