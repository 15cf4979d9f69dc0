package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A Spring AI server on the stdio starter: its stdout is the JSON-RPC stream, so neither Boot nor the agent may write there. */
abstract class AbstractSpringAiStdioScenarios extends AbstractSpringAiScenarios {
    private static final String STDOUT = "stdout.jsonl";

    @Override
    String transport() {
        return "stdio";
    }

    @Override
    String serverStdout() {
        return STDOUT;
    }

    @Test
    void writesNothingButJsonRpcToStdout() throws Exception {
        pair().call("echo", "{\"text\":\"stdout\"}");
        pair().call("unlisted_tool", "{}");
        pair().sync();
        List<String> stdout = Files.readAllLines(Fixtures.workPath(getClass().getSimpleName()).resolve("server").resolve(STDOUT));
        assertThat(stdout).as(pair().dump()).hasSizeGreaterThanOrEqualTo(4);
        ObjectMapper json = new ObjectMapper();
        for (String line : stdout) {
            JsonNode message = json.readTree(line);
            assertThat(message.path("jsonrpc").asText()).as("not a JSON-RPC message on stdout: %s", line).isEqualTo("2.0");
        }
        assertThat(stdout).anyMatch(l -> l.contains("echo: stdout")).anyMatch(l -> l.contains("Policy denied tool 'unlisted_tool'"));
        // Boot's log and the agent's own lines went to stderr
        assertThat(pair().serverLog()).anyMatch(l -> l.contains("Started SpringFixtureServer"))
                .anyMatch(l -> l.startsWith("[mcp-policy] policy "));
    }
}
