package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.util.List;

/** What a stdio server app wrote to its stdout (the JSON-RPC stream), as {@link McpPair} copied it to a file. */
final class StdoutOfServer {
    private StdoutOfServer() {
    }

    /**
     * That the stream holds JSON-RPC messages only, among them the answers to an {@code echo} of {@code stdout} and to a
     * denied call ({@code denial}), and that the agent's own lines went to stderr.
     */
    static void assertOnlyJsonRpc(McpPair pair, String test, String file, String denial) throws Exception {
        List<String> stdout = Files.readAllLines(Fixtures.workPath(test).resolve("server").resolve(file));
        assertThat(stdout).as(pair.dump()).hasSizeGreaterThanOrEqualTo(4);
        ObjectMapper json = new ObjectMapper();
        for (String line : stdout) {
            JsonNode message = json.readTree(line);
            assertThat(message.path("jsonrpc").asText()).as("not a JSON-RPC message on stdout: %s", line).isEqualTo("2.0");
        }
        assertThat(stdout).anyMatch(l -> l.contains("echo: stdout")).anyMatch(l -> l.contains(denial));
        assertThat(pair.serverLog()).anyMatch(l -> l.startsWith("[mcp-policy] policy "));
    }
}
