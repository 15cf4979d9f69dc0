package dev.mcppolicy.it;

/** SPEC §12–§13 on Spring AI 2.0.1 (SDK 2.0.0), on the stdio server starter ({@code spring-ai-starter-mcp-server}). */
class SpringAi201StdioResourcesIT extends AbstractSpringAiResourceScenarios {
    @Override
    String springAiFixture() {
        return "2.0.1-stdio";
    }

    @Override
    String sdkVersion() {
        return "2.0.0";
    }

    @Override
    String transport() {
        return "stdio";
    }
}
