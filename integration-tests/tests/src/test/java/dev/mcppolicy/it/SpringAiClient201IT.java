package dev.mcppolicy.it;

/** Spring AI 2.0.1 on Spring Boot 4.0.7 (SDK 2.0.0) as an MCP client, with the actuator. */
class SpringAiClient201IT extends AbstractSpringAiClientScenarios {
    @Override
    String springAiFixture() {
        return "2.0.1";
    }
}
