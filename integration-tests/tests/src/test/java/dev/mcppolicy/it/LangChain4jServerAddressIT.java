package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * LangChain4j's client, like the SDK's: a {@code servers} section keyed by how the client reached the
 * server ({@code url:<url>}, which the server cannot choose) wins over one keyed by the
 * {@code serverInfo.name} the server declares, which any server could claim.
 */
class LangChain4jServerAddressIT {
    private static final String POLICY = """
            {
              "version": "1",
              "default": "deny",
              "servers": {
                "fixture-server": { "default": "allow" },
                "ADDRESS": { "default": "deny", "tools": { "echo": {} } }
              }
            }
            """;

    @Test
    void judgesCallsByTheSectionOfTheServersAddressOverTheNameItClaims() throws Exception {
        String[] address = new String[1];
        try (LangChain4jApp app = LangChain4jApp.start("LangChain4jServerAddressIT", "1.18.1", "streamable", seen -> {
            address[0] = seen;
            return POLICY.replace("ADDRESS", seen);
        })) {
            assertThat(address[0]).matches("url:http://127\\.0\\.0\\.1:\\d+/mcp");
            assertThat(app.chat("list")).isEqualTo("TOOLS echo");
            assertThat(app.direct("run_command", "{\"command\":\"ls\"}"))
                    .startsWith("isError=true text=Policy denied tool 'run_command': ");
            app.sync();
            assertThat(app.appLog()).as(app.dump())
                    .anyMatch(line -> line.contains("decision=DENY tool=run_command side=client server=" + address[0] + " "))
                    .anyMatch(line -> line.contains("decision=ALLOW tool=echo side=client server=" + address[0] + " "))
                    .noneMatch(line -> line.contains("advice error") || line.contains("NOT instrumented") || line.contains("NOT policed"));
            assertThat(app.serverLog()).noneMatch(line -> line.contains("run_command"));
        }
    }
}
