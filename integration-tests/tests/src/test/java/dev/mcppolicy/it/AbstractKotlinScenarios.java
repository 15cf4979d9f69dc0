package dev.mcppolicy.it;

import java.io.IOException;
import java.util.regex.Pattern;

/**
 * The shared tool-call scenarios against the fixture server written in Kotlin on the Kotlin MCP SDK
 * ({@code fixtures/kotlin-sdk-0.16.0}, built with the Kotlin Maven plugin): over stdio its client is the Kotlin fixture
 * client, policed too; over streamable HTTP the SDK 2.1.0 fixture client. The Kotlin SDK answers a tool it does not
 * have with an {@code isError} result, {@code Tool X not found}, and so does the agent for a hidden one.
 */
abstract class AbstractKotlinScenarios extends AbstractToolCallScenarios implements UnknownToolScenario {
    static final String KOTLIN_SDK = "0.16.0";

    @Override
    String sdkVersion() {
        return "stdio".equals(transport()) ? McpPair.KOTLIN : McpPair.KOTLIN_HTTP_CLIENT;
    }

    @Override
    McpPair startPair() throws IOException {
        return McpPair.startKotlin(getClass().getSimpleName(), transport(), Policies.SERVER, Policies.CLIENT, "", "");
    }

    @Override
    String serverHookLine() {
        return "\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.kotlin\\.sdk\\.server\\.Server \\(kotlin-sdk-server-jvm "
                + Pattern.quote(KOTLIN_SDK) + "\\): tools/call, tools/list, " + SERVER_RESOURCE_HOOKS;
    }

    @Override
    String clientHookLine() {
        if (!"stdio".equals(transport())) {
            return super.clientHookLine();
        }
        return "\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.kotlin\\.sdk\\.client\\.Client \\(kotlin-sdk-client-jvm "
                + Pattern.quote(KOTLIN_SDK) + "\\): callTool, listTools, " + CLIENT_RESOURCE_HOOKS;
    }

    @Override
    String unknownToolErrorPrefix() {
        return "RESULT isError=true text=";
    }

    @Override
    String[] unknownToolMessages() {
        return new String[] {"Tool secret_tool not found"};
    }

}
