package dev.langchain4j.agent.tool;

/** Stands in for LangChain4j's tool call request in the weaving tests: the hooks match it by name only. */
public final class ToolExecutionRequest {
    private final String name;

    public ToolExecutionRequest(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }
}
