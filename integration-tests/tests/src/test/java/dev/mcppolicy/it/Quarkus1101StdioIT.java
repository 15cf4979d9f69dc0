package dev.mcppolicy.it;

import org.junit.jupiter.api.Test;

/** The Quarkus MCP server 1.10.1 over stdio (the stdio extension): its stdout is the JSON-RPC stream. */
class Quarkus1101StdioIT extends AbstractQuarkusScenarios {
    private static final String STDOUT = "stdout.jsonl";

    @Override
    String quarkusMcpVersion() {
        return "1.10.1";
    }

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
    }
}
