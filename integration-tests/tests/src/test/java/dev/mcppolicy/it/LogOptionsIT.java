package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code log=off} with {@code audit=FILE} on the server, {@code log=stderr} on the client. */
class LogOptionsIT {
    @Test
    void writesTheAuditFileAndHonoursLogOffAndLogStderr() throws Exception {
        try (McpPair pair = McpPair.start("LogOptionsIT", "1.1.5", "stdio", Policies.SERVER, Policies.CLIENT,
                "log=off,audit=audit/decisions.jsonl", "log=stderr")) {
            assertThat(pair.call("echo", "{\"text\":\"hi\"}")).isEqualTo("RESULT isError=false text=echo: hi");
            assertThat(pair.call("delete_everything", "{}")).startsWith("RESULT isError=true");

            Path audit = Fixtures.workPath("LogOptionsIT").resolve("server/audit/decisions.jsonl");
            List<String> records = AuditFiles.awaitLines(audit, 2);
            assertThat(records).hasSize(2);
            assertThat(records.get(0)).startsWith("{\"ts\":\"").contains("\"decision\":\"ALLOW\"", "\"tool\":\"echo\"",
                    "\"side\":\"server\"", "\"client\":\"fixture-client\"");
            assertThat(records.get(1)).contains("\"decision\":\"DENY\"", "\"tool\":\"delete_everything\"",
                    "\"reason\":\"destructive tools are disabled\"");

            pair.sync();
            assertThat(pair.serverLog()).as(pair.dump()).noneMatch(l -> l.contains("mcp-policy decision="));
            assertThat(pair.clientLog()).as(pair.dump())
                    .anyMatch(l -> l.startsWith("mcp-policy decision=ALLOW tool=echo side=client"));
            assertThat(pair.serverLog()).noneMatch(l -> l.contains("advice error"));
            assertThat(pair.clientLog()).noneMatch(l -> l.contains("advice error"));
        }
    }
}
