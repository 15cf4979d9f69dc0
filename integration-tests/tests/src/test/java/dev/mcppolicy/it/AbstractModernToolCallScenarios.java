package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The shared call scenarios against the fixture apps written on the SDK 2.2 modern API (protocol 2026-07-28,
 * stateless: no {@code initialize}, no session; the caller names itself in every request's {@code _meta}).
 * The client's {@code servers} section applies by the {@code serverInfo.name} the server gives in its results.
 */
abstract class AbstractModernToolCallScenarios extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return McpPair.MODERN_SDK;
    }

    @Override
    boolean hasSessionIdentity() {
        return false;
    }

    @Override
    McpPair startPair() throws java.io.IOException {
        return McpPair.startModern(getClass().getSimpleName(), transport(), async(), Policies.SERVER, Policies.CLIENT, "", "");
    }

    @Override
    String serverHookLine() {
        return "\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.modern\\.server\\.feature\\.ToolsFeature \\(mcp-core "
                + java.util.regex.Pattern.quote(sdkVersion()) + "\\): tools/call, tools/list";
    }

    @Override
    String clientHookLine() {
        return "\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.modern\\.client\\.Mcp" + (async() ? "Async" : "Sync")
                + "Client\\$ToolSpec \\(mcp-core " + java.util.regex.Pattern.quote(sdkVersion()) + "\\): call, callOnce";
    }

    @Override
    String unknownToolErrorPrefix() {
        return "ERROR McpException: ";
    }

    /**
     * Over HTTP the modern client mirrors a tool's parameters into {@code Mcp-Param-*} headers, so it calls only tools
     * its server lists, and refuses the others itself; the server's own answer to such calls over HTTP is proven by
     * {@link Sdk220ModernConcurrencyIT}, which POSTs them.
     */
    @Override
    String refusalOfUnlistedTool(String tool) {
        return "http".equals(transport())
                ? "ERROR IllegalArgumentException: Tool '" + tool + "' isn't listed by the server, so it can't be called by name over this transport"
                : null;
    }

    @Test
    void knowsTheCallerByTheClientInfoOfEachRequest() throws Exception {
        pair().call("echo", "{\"text\":\"who\"}");
        pair().sync();
        assertThat(matching(pair().serverLog(), "decision=ALLOW tool=echo side=server")).as(pair().dump())
                .anyMatch(line -> line.contains("client=fixture-client"));
    }
}
