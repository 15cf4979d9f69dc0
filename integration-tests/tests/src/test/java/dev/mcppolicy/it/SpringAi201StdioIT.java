package dev.mcppolicy.it;

/** Spring AI 2.0.1 on Spring Boot 4.0.7 (SDK 2.0.0), on the stdio server starter ({@code spring-ai-starter-mcp-server}). */
class SpringAi201StdioIT extends AbstractSpringAiStdioScenarios {
    @Override
    String springAiFixture() {
        return "2.0.1-stdio";
    }

    @Override
    String sdkVersion() {
        return "2.0.0";
    }
}
