package dev.mcppolicy.engine;

import java.util.Map;
import java.util.Objects;

/**
 * One tool call as the engine sees it.
 *
 * @param side server or client
 * @param server client side: the {@code servers} section key the call is judged under (see
 *     {@link PolicyEngine#serverSection}): the upstream server's address when a section is keyed by it,
 *     else its {@code serverInfo.name}; {@code null} on the server side
 * @param tool the tool name
 * @param arguments the call's arguments, JSON-like ({@code Map}, {@code List}, {@code String},
 *     {@code Number}, {@code Boolean}, {@code null}); never {@code null} (use an empty map)
 * @param sessionId the MCP session, or {@code null} when unknown
 * @param clientId the client's identity (authenticated principal, else {@code clientInfo.name}), or {@code null}
 * @param inputSchema the tool's advertised {@code inputSchema}, or {@code null} when unknown
 */
public record ToolCall(
        Side side,
        String server,
        String tool,
        Map<String, ?> arguments,
        String sessionId,
        String clientId,
        Map<String, ?> inputSchema) {

    public ToolCall {
        Objects.requireNonNull(side, "side");
        Objects.requireNonNull(tool, "tool");
        arguments = arguments == null ? Map.of() : arguments;
    }

    /** A server-side call with no identity and no schema: handy in tests and the CLI. */
    public static ToolCall server(String tool, Map<String, ?> arguments) {
        return new ToolCall(Side.SERVER, null, tool, arguments, null, null, null);
    }

    public ToolCall withIdentity(String sessionId, String clientId) {
        return new ToolCall(side, server, tool, arguments, sessionId, clientId, inputSchema);
    }
}
