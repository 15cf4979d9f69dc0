package dev.mcppolicy.it;

/** Spring AI 2.0.1 on Spring Boot 4.0.7 (SDK 2.0.0) over stdio: the WebMvc starter's app with {@code spring.ai.mcp.server.stdio=true} and no web server. */
class SpringAi201StdioIT extends AbstractSpringAiStdioScenarios {
    @Override
    String springAiFixture() {
        return "2.0.1";
    }

    @Override
    String sdkVersion() {
        return "2.0.0";
    }
}
