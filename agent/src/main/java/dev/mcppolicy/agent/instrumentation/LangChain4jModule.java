package dev.mcppolicy.agent.instrumentation;

import java.util.List;

/**
 * LangChain4j's MCP client ({@code dev.langchain4j:langchain4j-mcp}), which speaks MCP itself rather than
 * through the MCP Java SDK: one hooked class, {@code DefaultMcpClient}, client side only.
 */
public final class LangChain4jModule {
    public static final String VERSIONS = "1.0.0-beta5 - 1.18.1-beta28";

    private LangChain4jModule() {
    }

    public static List<TypeInstrumentation> instrumentations() {
        return List.of(new LangChain4jClientInstrumentation());
    }
}
