package dev.mcppolicy.it;

/** LangChain4j {@code langchain4j-mcp} 1.11.0-beta19 over stdio; this version keeps no initialize result: the agent reads the server's name from the initialize answer for the server section. */
class LangChain4j1110StdioIT extends AbstractLangChain4jConcurrencyScenarios {
    @Override
    String version() {
        return "1.11.0";
    }

    @Override
    String mcpVersion() {
        return "1.11.0-beta19";
    }

    @Override
    String transport() {
        return "stdio";
    }

    @Override
    String serverSection() {
        return "fixture-server";
    }

    @Override
    String directAnswer(boolean isError, String text) {
        return "isError=" + isError + " text=" + text;
    }

    @Override
    boolean hasInvocationContext() {
        return true;
    }
}
