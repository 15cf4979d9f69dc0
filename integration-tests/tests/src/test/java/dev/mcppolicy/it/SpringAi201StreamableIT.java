package dev.mcppolicy.it;

/** Spring AI 2.0.1 on Spring Boot 4.0.7 (SDK 2.0.0), streamable HTTP on WebMvc (Spring AI's own {@code mcp-spring-webmvc}). */
class SpringAi201StreamableIT extends AbstractSpringAiHttpScenarios {
    @Override
    String springAiFixture() {
        return "2.0.1";
    }

    @Override
    String sdkVersion() {
        return "2.0.0";
    }

    @Override
    String transport() {
        return "streamable";
    }

    @Override
    String transportClass() {
        return "org.springframework.ai.mcp.server.webmvc.transport.WebMvcStreamableServerTransportProvider";
    }
}
