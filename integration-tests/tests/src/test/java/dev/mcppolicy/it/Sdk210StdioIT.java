package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** SDK 2.1.0 over stdio; the fixtures of this version are the Logback app (see its logback.xml). */
class Sdk210StdioIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "2.1.0";
    }

    @Override
    String transport() {
        return "stdio";
    }

    @Test
    void writesDecisionsThroughTheAppsLogbackAppendersAndPattern() throws Exception {
        pair().call("echo", "{\"text\":\"logback\"}");
        pair().call("delete_everything", "{}");
        pair().sync();
        assertThat(pair().serverLog()).as(pair().dump())
                .anyMatch(l -> l.startsWith("[mcp-policy] decision log: SLF4J logger 'mcp.policy' (ch.qos.logback"))
                .anyMatch(l -> l.matches("LOGBACK INFO \\[.*] mcp\\.policy - mcp-policy decision=ALLOW tool=echo side=server .*"))
                .anyMatch(l -> l.matches("LOGBACK WARN \\[.*] mcp\\.policy - mcp-policy decision=DENY tool=delete_everything side=server .*"));
        assertThat(pair().clientLog())
                .anyMatch(l -> l.matches("LOGBACK INFO \\[.*] mcp\\.policy - mcp-policy decision=ALLOW tool=echo side=client .*"));
    }
}
