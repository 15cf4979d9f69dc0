package dev.mcppolicy.engine;

import java.util.Map;
import java.util.Objects;

/**
 * One call as the engine sees it: a tool call, or (SPEC §12) a resource read or a prompt get.
 *
 * @param side server or client
 * @param server client side: the {@code servers} section key the call is judged under (see
 *     {@link PolicyEngine#serverSection}): the upstream server's address when a section is keyed by it,
 *     else its {@code serverInfo.name}; {@code null} on the server side
 * @param tool the tool name; for a resource read the URI as the caller gave it (the engine matches its
 *     normalized form, {@link dev.mcppolicy.policy.ResourceUris}); for a prompt get the prompt's name
 * @param arguments the call's arguments (a resource read's are {@code {"uri": <uri>}}, a prompt's its arguments), JSON-like ({@code Map}, {@code List}, {@code String},
 *     {@code Number}, {@code Boolean}, {@code null}); never {@code null} (use an empty map)
 * @param sessionId the MCP session, or {@code null} when unknown
 * @param clientId the client's identity (authenticated principal, else {@code clientInfo.name}), or {@code null}
 * @param inputSchema the tool's advertised {@code inputSchema}, or {@code null} when unknown
 * @param kind what the call asks for
 * @param caller who is calling, as verified (issue 32): {@link Caller#unverified()} when nothing was
 */
public record ToolCall(
        Side side,
        String server,
        String tool,
        Map<String, ?> arguments,
        String sessionId,
        String clientId,
        Map<String, ?> inputSchema,
        Kind kind,
        Caller caller) {

    public ToolCall {
        Objects.requireNonNull(side, "side");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(kind, "kind");
        arguments = arguments == null ? Map.of() : arguments;
        caller = caller == null ? Caller.unverified() : caller;
    }

    /** A call of {@code kind} with no verified caller. */
    public ToolCall(Side side, String server, String tool, Map<String, ?> arguments, String sessionId, String clientId,
                    Map<String, ?> inputSchema, Kind kind) {
        this(side, server, tool, arguments, sessionId, clientId, inputSchema, kind, Caller.unverified());
    }

    /** A tool call. */
    public ToolCall(Side side, String server, String tool, Map<String, ?> arguments, String sessionId, String clientId,
                    Map<String, ?> inputSchema) {
        this(side, server, tool, arguments, sessionId, clientId, inputSchema, Kind.TOOL);
    }

    /** A {@code resources/read} of {@code uri}: its arguments are {@code {"uri": uri}}, for conditions on the path {@code uri}. */
    public static ToolCall resource(Side side, String server, String uri, String sessionId, String clientId) {
        return new ToolCall(side, server, uri, Map.of("uri", uri), sessionId, clientId, null, Kind.RESOURCE);
    }

    /** A {@code prompts/get} of the prompt {@code name} with its arguments. */
    public static ToolCall prompt(Side side, String server, String name, Map<String, ?> arguments, String sessionId,
                                  String clientId) {
        return new ToolCall(side, server, name, arguments, sessionId, clientId, null, Kind.PROMPT);
    }

    /** A server-side call with no identity and no schema: handy in tests and the CLI. */
    public static ToolCall server(String tool, Map<String, ?> arguments) {
        return new ToolCall(Side.SERVER, null, tool, arguments, null, null, null);
    }

    public ToolCall withIdentity(String sessionId, String clientId) {
        return new ToolCall(side, server, tool, arguments, sessionId, clientId, inputSchema, kind, caller);
    }

    /** This call, made by {@code caller}. */
    public ToolCall withCaller(Caller caller) {
        return new ToolCall(side, server, tool, arguments, sessionId, clientId, inputSchema, kind, caller);
    }
}
