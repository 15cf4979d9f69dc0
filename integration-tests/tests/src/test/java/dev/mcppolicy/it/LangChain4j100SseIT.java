package dev.mcppolicy.it;

/**
 * LangChain4j {@code langchain4j-mcp} 1.0.0-beta5 over HTTP with SSE; this version keeps no initialize result:
 * the agent reads the server's name from the initialize answer for the server section. No concurrency scenario: this client and the SDK's SSE server
 * lost 2 to 40 of 40 concurrent calls in runs without the agent.
 */
class LangChain4j100SseIT extends AbstractLangChain4jScenarios {
    @Override
    String version() {
        return "1.0.0";
    }

    @Override
    String mcpVersion() {
        return "1.0.0-beta5";
    }

    @Override
    String transport() {
        return "sse";
    }

    @Override
    String serverSection() {
        return "fixture-server";
    }

    @Override
    String directAnswer(boolean isError, String text) {
        return "text=" + text;
    }

    @Override
    boolean hasInvocationContext() {
        return false;
    }
}
