package dev.mcppolicy.it;

/** Spring AI 1.1.2 on Spring Boot 3.5.7 (SDK 0.17.0), SSE on WebFlux (the SDK's {@code mcp-spring-webflux}, the WebFlux starter). */
class SpringAi112WebFluxSseIT extends AbstractSpringAiHttpScenarios {
    @Override
    String springAiFixture() {
        return "1.1.2-webflux";
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
        return "io.modelcontextprotocol.server.transport.WebFluxSseServerTransportProvider";
    }
}
