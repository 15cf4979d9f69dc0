package dev.mcppolicy.it;

/** SPEC §12–§13 on LangChain4j {@code langchain4j-mcp} 1.18.1-beta28 (the newest served) over streamable HTTP. */
class LangChain4j1181ResourcesIT extends AbstractLangChain4jResourceScenarios {
    @Override
    String version() {
        return "1.18.1";
    }

    @Override
    String transport() {
        return "streamable";
    }

    @Override
    String directAnswer(boolean isError, String text) {
        return "isError=" + isError + " text=" + text;
    }
}
