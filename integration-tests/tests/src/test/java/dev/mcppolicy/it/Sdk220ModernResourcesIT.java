package dev.mcppolicy.it;

import java.util.List;

/**
 * SPEC §12–§13 on the SDK 2.2 modern API (protocol 2026-07-28) over stdio: resources, templates and prompts decided
 * and filtered, answers judged (a streaming tool answer too: {@code big}), on the server's {@code ResourcesFeature},
 * {@code PromptsFeature} and {@code ToolsFeature} and on the sync client's specs.
 */
class Sdk220ModernResourcesIT extends AbstractResourceScenarios {
    @Override
    String sdkVersion() {
        return McpPair.MODERN_SDK;
    }

    @Override
    String transport() {
        return "stdio";
    }

    @Override
    McpPair startPair(String name, String serverPolicy, String clientPolicy, List<String> serverJvmArgs) throws Exception {
        return McpPair.startModern(name, transport(), false, serverPolicy, clientPolicy, "", "", List.of(), serverJvmArgs);
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
        String client = "\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.modern\\.client\\.McpSyncClient\\$";
        return List.of(client + "ToolSpec .*: call, callOnce", client + "ResourceSpec .*: read, readOnce", client + "PromptSpec .*: get, getOnce");
    }
}
