package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.MethodShape.MONO;
import static dev.mcppolicy.agent.instrumentation.MethodShape.method;

import java.util.List;
import org.objectweb.asm.Opcodes;

/**
 * The MCP Java SDK's second API, {@code io.modelcontextprotocol.modern.*} (SDK {@value #VERSIONS}, protocol
 * 2026-07-28: stateless, no {@code initialize}), in the same {@code mcp-core} jar as the classic one. Server:
 * {@code ToolsFeature}, the one feature that serves {@code tools/call} and {@code tools/list} on every modern
 * transport (stdio, HTTP). Client: the sync and async clients' {@code ToolSpec.call()} / {@code callOnce()} and
 * their tool lists ({@code listTools().list()}, and {@code tools().list()} page by page).
 */
public final class ModernSdkModule {
    public static final String VERSIONS = "2.2.0";

    static final String PACKAGE = "io/modelcontextprotocol/modern/";
    static final String CONTEXT = "L" + PACKAGE + "server/McpRequestContext;";
    private static final String SCHEMA = "L" + PACKAGE + "McpSchema$";

    /**
     * Server {@code tools/call}: {@code ToolsFeature.call(ctx, tool, request)}, which the feature runs for a tool
     * its repository found, before it checks capabilities, parameter headers and the input schema. On entry,
     * {@code PolicyBridge.modernServerCall(feature, ctx, tool, request, call)}: a denial is returned instead.
     */
    static final Weave SERVER_CALL = Weave.enterUnlessNull("modernServerCall", Weave.THIS, 0, 1, 2, Weave.SELF);

    /** Server {@code tools/list}: what {@code ToolsFeature.handle(ctx, params)} returns becomes {@code modernServerList(result, ctx)}. */
    static final Weave SERVER_LIST = Weave.replaceReturn("modernServerList", 0);

    /** Sync client: on entry to {@code ToolSpec.call()}/{@code callOnce()}, {@code modernClientCall(spec)}; a denial is returned, never sent. */
    static final Weave SYNC_CALL = Weave.enterUnlessNull("modernClientCall", Weave.THIS);

    /** Async client: the {@code Mono} {@code ToolSpec.call()}/{@code callOnce()} return becomes one that decides when subscribed. */
    static final Weave ASYNC_CALL = Weave.replaceReturn("modernClientCallAsync", Weave.THIS);

    /** Client tool lists (a result, or a {@code Mono} of one): hidden and outright-denied tools left out. */
    static final Weave LIST = Weave.replaceReturn("modernClientList", Weave.THIS);

    private ModernSdkModule() {
    }

    public static List<TypeInstrumentation> instrumentations() {
        String client = PACKAGE + "client/";
        return List.of(
                new Modern(PACKAGE + "server/feature/ToolsFeature", List.of(
                        new TypeInstrumentation.Hook("tools/call", method(Opcodes.ACC_PRIVATE, "call", 3, CONTEXT, MONO), SERVER_CALL, 1, 1),
                        new TypeInstrumentation.Hook("tools/list", method(Opcodes.ACC_PUBLIC, "handle", 2, CONTEXT, MONO), SERVER_LIST, 1, 1))),
                new Modern(client + "McpSyncClient$ToolSpec", List.of(
                        new TypeInstrumentation.Hook("call", method(Opcodes.ACC_PUBLIC, "call", 0, null, SCHEMA + "CallToolResult;"), SYNC_CALL, 1, 1),
                        new TypeInstrumentation.Hook("callOnce", method(Opcodes.ACC_PUBLIC, "callOnce", 0, null, SCHEMA + "CallToolOutcome;"),
                                SYNC_CALL, 1, 1))),
                new Modern(client + "McpAsyncClient$ToolSpec", List.of(
                        new TypeInstrumentation.Hook("call", method(Opcodes.ACC_PUBLIC, "call", 0, null, MONO), ASYNC_CALL, 1, 1),
                        new TypeInstrumentation.Hook("callOnce", method(Opcodes.ACC_PUBLIC, "callOnce", 0, null, MONO), ASYNC_CALL, 1, 1))),
                new Modern(client + "McpSyncClient$ListToolsSpec", List.of(new TypeInstrumentation.Hook("listTools",
                        method(Opcodes.ACC_PUBLIC, "list", 0, null, SCHEMA + "ListToolsResult;"), LIST, 1))),
                new Modern(client + "McpAsyncClient$ListToolsSpec", List.of(new TypeInstrumentation.Hook("listTools",
                        method(Opcodes.ACC_PUBLIC, "list", 0, null, MONO), LIST, 1))),
                new Modern(client + "McpSyncClient$ListSpec", List.of(new TypeInstrumentation.Hook("tools().list",
                        method(Opcodes.ACC_PUBLIC, "list", 0, null, SCHEMA + "CacheableResult;"), LIST, 1))),
                new Modern(client + "McpAsyncClient$ListSpec", List.of(new TypeInstrumentation.Hook("tools().list",
                        method(Opcodes.ACC_PUBLIC, "list", 0, null, MONO), LIST, 1))));
    }

    /** One hooked class of the modern API; its misses are measured against this module's shape. */
    record Modern(String internalName, List<Hook> hooks) implements TypeInstrumentation {
        @Override
        public String expectedShape() {
            return "the SDK " + VERSIONS + " modern API shape";
        }
    }
}
