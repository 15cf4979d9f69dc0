package dev.mcppolicy.it;

/** Spring AI 1.1.2 on Spring Boot 3.5.7 (SDK 0.17.0), the stateless streamable-HTTP server on WebMvc (the SDK's {@code mcp-spring-webmvc}). */
class SpringAi112StatelessIT extends AbstractSpringAiHttpScenarios {
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
        return "stateless";
    }

    @Override
    String transportClass() {
        return "io.modelcontextprotocol.server.transport.WebMvcStatelessServerTransport";
    }
}
