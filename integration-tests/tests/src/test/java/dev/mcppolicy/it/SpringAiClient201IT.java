package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

/** Spring AI 2.0.1 on Spring Boot 4.0.7 (SDK 2.0.0) as an MCP client, no web server: the app exits after its conversation. */
class SpringAiClient201IT extends AbstractSpringAiClientScenarios {
    @Override
    String springAiFixture() {
        return "2.0.1";
    }

    @Override
    void awaitConversation() throws Exception {
        assertThat(app.waitForExit()).as(app.dump()).isZero();
    }
}
