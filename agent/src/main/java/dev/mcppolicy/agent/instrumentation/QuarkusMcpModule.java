package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.MethodShape.method;

import java.util.List;

/**
 * The Quarkus MCP server ({@code io.quarkiverse.mcp:quarkus-mcp-server-*} {@value #VERSIONS}), which speaks MCP itself
 * on Vert.x rather than through the MCP Java SDK: one hooked class, {@code ToolMessageHandler}, the handler every
 * transport of the extension (stdio, streamable HTTP, SSE, WebSocket) hands {@code tools/call} and {@code tools/list}
 * to, on a Vert.x context. Server side only (the extension has no MCP client).
 */
public final class QuarkusMcpModule {
    public static final String VERSIONS = "1.10.1 - 1.13.0";

    static final String HANDLER = "io/quarkiverse/mcp/server/runtime/ToolMessageHandler";
    private static final String JSON_OBJECT = "Lio/vertx/core/json/JsonObject;";
    private static final String FUTURE = "Lio/vertx/core/Future;";

    /**
     * {@code tools/call}: on entry to {@code toolsCall(message, request)},
     * {@code PolicyBridge.quarkusServerCall(handler, message, request, call)}: {@code null} runs it, anything else (the
     * {@code Future} of the denial the hook sent, or of a call held for approval) is returned instead.
     */
    static final Weave SERVER_CALL = Weave.enterUnlessNull("quarkusServerCall", Weave.THIS, 0, 1, Weave.SELF);

    /**
     * {@code tools/list}: in {@code toolsList(message, request)}, each {@code tools.add(info.asJson())} becomes
     * {@code PolicyBridge.quarkusServerListed(tools, tool)}, which adds only the tools the policy lists.
     */
    static final Weave SERVER_LIST = Weave.replaceCall("io/vertx/core/json/JsonArray", "add", "quarkusServerListed");

    private QuarkusMcpModule() {
    }

    public static List<TypeInstrumentation> instrumentations() {
        return List.of(new Quarkus(HANDLER, List.of(
                new TypeInstrumentation.Hook("tools/call", method(0, "toolsCall", 2, JSON_OBJECT, FUTURE), SERVER_CALL, 1, 1),
                new TypeInstrumentation.Hook("tools/list", method(0, "toolsList", 2, JSON_OBJECT, FUTURE), SERVER_LIST, 1, 1))));
    }

    /** The hooked class of the Quarkus MCP server; its misses are measured against this module's shape. */
    record Quarkus(String internalName, List<Hook> hooks) implements TypeInstrumentation {
        @Override
        public String expectedShape() {
            return "the quarkus-mcp-server " + VERSIONS + " shape";
        }
    }
}
