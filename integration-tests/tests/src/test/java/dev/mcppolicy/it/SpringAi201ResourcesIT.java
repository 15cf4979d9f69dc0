package dev.mcppolicy.it;

/** SPEC §12–§13 on Spring AI 2.0.1 (SDK 2.0.0), streamable HTTP on WebMvc (Spring AI's own {@code mcp-spring-webmvc}). */
class SpringAi201ResourcesIT extends AbstractSpringAiResourceScenarios {
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
}
