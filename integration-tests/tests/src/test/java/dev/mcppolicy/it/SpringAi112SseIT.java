package dev.mcppolicy.it;

/** Spring AI 1.1.2 on Spring Boot 3.5.7 (SDK 0.17.0), SSE on WebMvc (the SDK's {@code mcp-spring-webmvc}). */
class SpringAi112SseIT extends AbstractSpringAiHttpScenarios {
    @Override
    String springAiFixture() {
        return "1.1.2";
    }

    @Override
    String sdkVersion() {
        return "0.17.0";
    }

    @Override
    String transport() {
        return "sse";
    }

    @Override
    String transportClass() {
        return "io.modelcontextprotocol.server.transport.WebMvcSseServerTransportProvider";
    }
}
