package dev.mcppolicy.it;

/** SPEC §14 on LangChain4j {@code langchain4j-mcp} 1.0.0-beta5 (the oldest served) over stdio. */
class LangChain4j100PinsIT extends AbstractLangChain4jPinScenarios {
    @Override
    String version() {
        return "1.0.0";
    }

    @Override
    String transport() {
        return "stdio";
    }

    @Override
    String directAnswer(boolean isError, String text) {
        return "text=" + text;
    }
}
