package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

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
        StdoutOfServer.assertOnlyJsonRpc(pair(), getClass().getSimpleName(), STDOUT, "Policy denied tool 'unlisted_tool'");
        // Boot's log went to stderr
        assertThat(pair().serverLog()).anyMatch(l -> l.contains("Started SpringFixtureServer"));
    }
}
