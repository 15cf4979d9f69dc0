package dev.mcppolicy.it;

/**
 * SPEC §14 on LangChain4j {@code langchain4j-mcp} 1.18.1-beta28 (the newest served) over stdio. Over streamable HTTP
 * this version opens no stream for server notifications, so it never hears {@code tools/list_changed} and keeps the list
 * it cached: its model goes on seeing the definitions that were pinned.
 */
class LangChain4j1181PinsIT extends AbstractLangChain4jPinScenarios {
    @Override
    String version() {
        return "1.18.1";
    }

    @Override
    String transport() {
        return "stdio";
    }

    @Override
    String directAnswer(boolean isError, String text) {
        return "isError=" + isError + " text=" + text;
    }
}
