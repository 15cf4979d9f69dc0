package dev.mcppolicy.it;

/** Spring AI 1.1.2 on Spring Boot 3.5.7 (SDK 0.17.0) as an MCP client, with the actuator. */
class SpringAiClient112IT extends AbstractSpringAiClientScenarios {
    @Override
    String springAiFixture() {
        return "1.1.2";
    }
}
