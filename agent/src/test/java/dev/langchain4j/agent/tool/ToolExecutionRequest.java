package dev.langchain4j.agent.tool;

/** Stands in for LangChain4j's tool call request in the agent's tests: the hooks find it and read it by name only. */
public final class ToolExecutionRequest {
    private final String name;
    private final String arguments;

    public ToolExecutionRequest(String name) {
        this(name, "{}");
    }

    public ToolExecutionRequest(String name, String arguments) {
        this.name = name;
        this.arguments = arguments;
    }

    public String name() {
        return name;
    }

    public String arguments() {
        return arguments;
    }
}
