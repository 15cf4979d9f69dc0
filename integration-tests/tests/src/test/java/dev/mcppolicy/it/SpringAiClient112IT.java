package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Spring AI 1.1.2 on Spring Boot 3.5.7 (SDK 0.17.0) as an MCP client, with the actuator and the Prometheus
 * registry on a web server (127.0.0.1, a free port): the agent's Micrometer meters show at
 * {@code /actuator/prometheus} with no code in the app (issue 12 §2).
 */
class SpringAiClient112IT extends AbstractSpringAiClientScenarios {
    private String url;

    @Override
    String springAiFixture() {
        return "1.1.2";
    }

    @Override
    List<String> appArguments() {
        return List.of("--spring.profiles.active=actuator");
    }

    @Override
    void awaitConversation() {
        String listening = app.awaitStderr(l -> l.startsWith("FIXTURE LISTENING "));
        url = "http://127.0.0.1:" + listening.substring("FIXTURE LISTENING ".length()).trim();
    }

    @Test
    void countsAndTimesEachDecisionOnTheActuatorsPrometheusEndpoint() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        List<String> lines = response.body().lines().filter(l -> l.startsWith("mcp_policy")).toList();
        System.out.println("mcp_policy lines at /actuator/prometheus:\n" + String.join("\n", lines));
        String echo = "{decision=\"ALLOW\",rule=\"(default)\",side=\"client\",tool=\"echo\"}";
        String wire = "{decision=\"DENY\",rule=\"/servers/fixture-server/tools/wire_money/deny_if/0\",side=\"client\",tool=\"wire_money\"}";
        assertThat(lines).as(response.body())
                .contains("mcp_policy_decisions_total" + echo + " 1.0", "mcp_policy_decision_seconds_count" + echo + " 1",
                        "mcp_policy_decisions_total" + wire + " 1.0", "mcp_policy_decision_seconds_count" + wire + " 1");
    }
}
