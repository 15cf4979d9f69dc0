package dev.mcppolicy.it;

/** SPEC §12–§13 on Spring AI 1.1.2 (SDK 0.17.0), streamable HTTP on WebMvc (the SDK's {@code mcp-spring-webmvc}). */
class SpringAi112ResourcesIT extends AbstractSpringAiResourceScenarios {
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
        return "streamable";
    }
}
