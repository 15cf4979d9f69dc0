package dev.mcppolicy.it;

/** Spring AI 1.0.3 on Spring Boot 3.5.7 (SDK 0.10.0), on the stdio server starter ({@code spring-ai-starter-mcp-server}). */
class SpringAi103StdioIT extends AbstractSpringAiStdioScenarios {
    @Override
    String springAiFixture() {
        return "1.0.3-stdio";
    }

    @Override
    String sdkVersion() {
        return "0.10.0";
    }
}
