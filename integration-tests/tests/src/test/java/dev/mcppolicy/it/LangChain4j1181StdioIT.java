package dev.mcppolicy.it;

/** LangChain4j {@code langchain4j-mcp} 1.18.1-beta28 over stdio; the server section is the server's serverInfo.name, which this version keeps. */
class LangChain4j1181StdioIT extends AbstractLangChain4jConcurrencyScenarios {
    @Override
    String version() {
        return "1.18.1";
    }

    @Override
    String mcpVersion() {
        return "1.18.1-beta28";
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
