package dev.mcppolicy.it;

import java.util.List;

/**
 * SPEC §12–§13 on the SDK 2.2 modern API over HTTP with the async client: the shared resource scenarios, each of the
 * client's reads, gets and calls a {@code Mono} that decides when subscribed (the server's streaming answer of
 * {@code big} judged when its body's outcome comes).
 */
class Sdk220ModernAsyncResourcesIT extends AbstractResourceScenarios {
    @Override
    String sdkVersion() {
        return McpPair.MODERN_SDK;
    }

    @Override
    String transport() {
        return "http";
    }

    @Override
    McpPair startPair(String name, String serverPolicy, String clientPolicy, List<String> serverJvmArgs) throws Exception {
        return McpPair.startModern(name, transport(), true, serverPolicy, clientPolicy, "", "", List.of(), serverJvmArgs);
    }

    @Override
    String error() {
        return "ERROR McpException: ";
    }

    @Override
    List<String> serverHookLines() {
        String feature = "\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.modern\\.server\\.feature\\.";
        return List.of(feature + "ToolsFeature .*: tools/call, tools/list", feature + "ResourcesFeature .*: resources/read, resources/list",
                feature + "PromptsFeature .*: prompts/get, prompts/list");
    }

    @Override
    List<String> clientHookLines() {
        String client = "\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.modern\\.client\\.McpAsyncClient\\$";
        return List.of(client + "ToolSpec .*: call, callOnce", client + "ResourceSpec .*: read, readOnce", client + "PromptSpec .*: get, getOnce");
    }
}
