package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link AbstractLangChain4jScenarios} and calls from several threads at once through one
 * {@code DefaultMcpClient}. Not for LangChain4j 1.0 over SSE: against the SDK 2.1.0 SSE server that pair
 * loses answers to concurrent calls (they time out after 60 s) with or without the agent.
 */
abstract class AbstractLangChain4jConcurrencyScenarios extends AbstractLangChain4jScenarios {
    @Test
    void answersEveryConcurrentCallThroughOneClientExactlyOnceWithOneDecisionEach() throws Exception {
        int calls = 40;
        app().sync();
        int before = app().awaitAppLogCount("side=client", 0).size();
        assertThat(app().command("burst 8 " + calls)).as(app().dump()).isEqualTo("BURST answered=40 allowed=20 denied=20");
        app().sync();
        // the burst's 40 and the sync's 1: exactly one decision line per call
        assertThat(app().awaitAppLogCount("side=client", before + calls + 1)).as(app().dump()).hasSize(before + calls + 1);
        List<String> burst = app().appOutput().stream().filter(line -> line.startsWith("BURST ")).collect(Collectors.toList());
        assertThat(burst).hasSize(calls);
        for (int i = 0; i < calls; i += 2) {
            int n = i;
            assertThat(count(app().serverLog(), "HANDLER RAN echo {text=b" + n + "}")).as("echo b%d ran once", n).isEqualTo(1);
        }
        assertThat(app().serverLog()).noneMatch(line -> Pattern.compile("rm -rf /b\\d+").matcher(line).find());
    }
}
