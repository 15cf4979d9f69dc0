package dev.mcppolicy.it;

/** Spring AI 1.1.2 on Spring Boot 3.5.7 (SDK 0.17.0) over stdio: the WebMvc starter's app with {@code spring.ai.mcp.server.stdio=true} and no web server. */
class SpringAi112StdioIT extends AbstractSpringAiStdioScenarios {
    @Override
    String springAiFixture() {
        return "1.1.2";
    }

    @Override
    String sdkVersion() {
        return "0.17.0";
    }
}
