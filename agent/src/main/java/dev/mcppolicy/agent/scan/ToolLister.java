package dev.mcppolicy.agent.scan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcppolicy.scan.ScannedTool;
import dev.mcppolicy.text.DisplayText;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The MCP conversation of a scan: {@code initialize}, {@code notifications/initialized}, then
 * {@code tools/list} page by page until no {@code nextCursor} comes. All of it before one deadline.
 */
final class ToolLister {
    /** The newest protocol version this client speaks; a server may answer with an older one, which serves as well. */
    static final String PROTOCOL_VERSION = "2025-06-18";
    static final int MAX_PAGES = 1000;

    private final ObjectMapper json;
    private final McpChannel channel;
    private long nextId = 1;

    /** What the server said about itself, and its tools. */
    record Listing(String serverName, String serverVersion, String protocolVersion, List<ScannedTool> tools) {
    }

    ToolLister(ObjectMapper json, McpChannel channel) {
        this.json = json;
        this.channel = channel;
    }

    Listing list(long deadline) throws ScanException {
        ObjectNode params = json.createObjectNode().put("protocolVersion", PROTOCOL_VERSION);
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "mcp-policy-scan").put("version", version());
        JsonNode initialized = result(channel.request(nextId++, "initialize", params, deadline), "initialize");
        String protocol = initialized.path("protocolVersion").asText("");
        if (protocol.isEmpty()) {
            throw new ScanException(ScanException.SERVER, "the server's answer to initialize names no protocolVersion: " + capped(initialized.toString()));
        }
        channel.initialized(protocol);
        channel.notify("notifications/initialized", deadline);
        JsonNode serverInfo = initialized.path("serverInfo");

        List<ScannedTool> tools = new ArrayList<>();
        Set<String> cursors = new HashSet<>();
        String cursor = null;
        for (int page = 1; ; page++) {
            if (page > MAX_PAGES) {
                throw new ScanException(ScanException.SERVER, "the server's tools/list goes on past " + MAX_PAGES + " pages");
            }
            ObjectNode listParams = json.createObjectNode();
            if (cursor != null) {
                listParams.put("cursor", cursor);
            }
            String step = page == 1 ? "tools/list" : "tools/list (page " + page + ")";
            JsonNode result = result(channel.request(nextId++, "tools/list", listParams, deadline), step);
            JsonNode listed = result.path("tools");
            if (!listed.isArray()) {
                throw new ScanException(ScanException.SERVER, "the server's answer to " + step + " has no tools array: " + capped(result.toString()));
            }
            for (JsonNode tool : listed) {
                tools.add(tool(tool));
            }
            JsonNode next = result.path("nextCursor");
            if (!next.isTextual() || next.asText().isEmpty()) {
                break;
            }
            cursor = next.asText();
            if (!cursors.add(cursor)) {
                throw new ScanException(ScanException.SERVER, "the server's tools/list gave the cursor " + capped(cursor) + " twice");
            }
        }
        return new Listing(serverInfo.path("name").asText(""), serverInfo.path("version").asText(""), protocol, tools);
    }

    @SuppressWarnings("unchecked")
    private ScannedTool tool(JsonNode tool) {
        JsonNode name = tool.path("name");
        JsonNode description = tool.path("description");
        JsonNode annotations = tool.path("annotations");
        JsonNode schema = tool.path("inputSchema");
        return new ScannedTool(name.isTextual() ? name.asText() : null, description.isTextual() ? description.asText() : null,
                annotations.isObject() ? json.convertValue(annotations, Map.class) : null,
                schema.isObject() ? json.convertValue(schema, Map.class) : null);
    }

    /** The {@code result} of an answer, or why there is none. */
    private static JsonNode result(JsonNode answer, String step) throws ScanException {
        JsonNode error = answer.path("error");
        if (!error.isMissingNode()) {
            throw new ScanException(ScanException.SERVER, "the server answered " + step + " with error " + error.path("code").asText("?")
                    + ": " + capped(error.path("message").asText(error.toString())));
        }
        JsonNode result = answer.path("result");
        if (!result.isObject()) {
            throw new ScanException(ScanException.SERVER, "the server's answer to " + step + " has no result object: " + capped(answer.toString()));
        }
        return result;
    }

    private static String capped(String text) {
        StringBuilder shown = new StringBuilder();
        DisplayText.appendQuoted(text, '\u0000', 300, shown);
        return shown.toString();
    }

    private static String version() {
        String version = ToolLister.class.getPackage().getImplementationVersion();
        return version != null ? version : "dev";
    }
}
