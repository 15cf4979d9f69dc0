package dev.mcppolicy.it;

/** Spring AI 1.1.2 on Spring Boot 3.5.7 (SDK 0.17.0), on the stdio server starter ({@code spring-ai-starter-mcp-server}). */
class SpringAi112StdioIT extends AbstractSpringAiStdioScenarios {
    @Override
    String springAiFixture() {
        return "1.1.2-stdio";
    }

    @Override
    String sdkVersion() {
        return "0.17.0";
    }
}
