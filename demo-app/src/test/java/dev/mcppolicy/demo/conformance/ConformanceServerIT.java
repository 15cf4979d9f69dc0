package dev.mcppolicy.demo.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The third-party conformance suite ({@code @modelcontextprotocol/conformance}, server mode) against the
 * fixture server, without the policy agent: the baseline a run under the agent must match.
 */
class ConformanceServerIT {
    private static final String EXPECTED = "/conformance/expected-server-results.properties";

    @Test
    void passesEveryActiveScenarioOfTheConformanceSuite() throws Exception {
        ConformanceRun.Results results = ConformanceRun.run("without-agent", List.of());

        assertThat(results.passed()).as(results::report).isEqualTo(expected());
    }

    /** Scenario to outcome, as checked in: {@code pass} or {@code fail}. */
    static Map<String, Boolean> expected() throws IOException {
        Properties outcomes = new Properties();
        try (InputStream in = ConformanceServerIT.class.getResourceAsStream(EXPECTED)) {
            assertThat(in).as("test resource %s", EXPECTED).isNotNull();
            outcomes.load(in);
        }
        Map<String, Boolean> expected = new TreeMap<>();
        outcomes.forEach((scenario, outcome) -> expected.put((String) scenario, "pass".equals(outcome)));
        return expected;
    }
}
