package dev.mcppolicy.agent.sdk;

/** Stands in for the SDK's {@code io.modelcontextprotocol.common.McpTransportContext} (found by its simple name). */
public interface McpTransportContext {
    Object get(String key);
}
