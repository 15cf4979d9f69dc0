package dev.mcppolicy.it;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The shared resource scenarios (SPEC §12–§13) with the Kotlin fixture server ({@code fixtures/kotlin-sdk-0.16.0}, its
 * catalog offered with {@code -Dfixture.catalog=true}) under the agent: over stdio its client is the Kotlin fixture
 * client, policed too; over streamable HTTP the SDK 2.1.0 fixture client.
 */
abstract class AbstractKotlinResourceScenarios extends AbstractResourceScenarios {
    @Override
    String sdkVersion() {
        return "stdio".equals(transport()) ? McpPair.KOTLIN : McpPair.KOTLIN_HTTP_CLIENT;
    }

    @Override
    McpPair startPair(String name, String serverPolicy, String clientPolicy, List<String> serverJvmArgs) throws Exception {
        return McpPair.startKotlin(name, transport(), serverPolicy, clientPolicy, "", "", serverJvmArgs);
    }

    @Override
    String error() {
        return "stdio".equals(transport()) ? "ERROR McpException: " : super.error();
    }

    @Override
    List<String> serverHookLines() {
        return List.of("\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.kotlin\\.sdk\\.server\\.Server \\(kotlin-sdk-server-jvm "
                + Pattern.quote(AbstractKotlinScenarios.KOTLIN_SDK) + "\\): tools/call, tools/list, " + AbstractToolCallScenarios.SERVER_RESOURCE_HOOKS);
    }

    @Override
    List<String> clientHookLines() {
        if (!"stdio".equals(transport())) {
            return super.clientHookLines();
        }
        return List.of("\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.kotlin\\.sdk\\.client\\.Client \\(kotlin-sdk-client-jvm "
                + Pattern.quote(AbstractKotlinScenarios.KOTLIN_SDK) + "\\): callTool, listTools, " + AbstractToolCallScenarios.CLIENT_RESOURCE_HOOKS);
    }
}
