package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.MethodShape.MONO;
import static dev.mcppolicy.agent.instrumentation.MethodShape.method;

import java.util.List;
import org.objectweb.asm.Opcodes;

/**
 * The MCP Java SDK's second API, {@code io.modelcontextprotocol.modern.*} (SDK {@value #VERSIONS}, protocol
 * 2026-07-28: stateless, no {@code initialize}), in the same {@code mcp-core} jar as the classic one. Server:
 * {@code ToolsFeature}, the one feature that serves {@code tools/call} and {@code tools/list} on every modern
 * transport (stdio, HTTP). {@code ResourcesFeature} and {@code PromptsFeature} (SPEC §12: reads, gets and their lists).
 * Client: the sync and async clients' {@code ToolSpec.call()} / {@code callOnce()}, {@code ResourceSpec.read()} /
 * {@code readOnce()}, {@code PromptSpec.get()} / {@code getOnce()} and their lists ({@code listTools().list()}, and
 * {@code tools()}, {@code resources()}, {@code resourceTemplates()}, {@code prompts()} {@code .list()} page by page).
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

    /**
     * Server {@code resources/read} (SPEC §12): {@code ResourcesFeature.read(ctx, resource, request)}, run for a resource
     * (or a template's) the repository found; on entry {@code modernServerRead(feature, ctx, resource, request, read)}.
     */
    static final Weave SERVER_READ = Weave.enterUnlessNull("modernServerRead", Weave.THIS, 0, 1, 2, Weave.SELF);

    /** Server {@code prompts/get}: {@code PromptsFeature.get(ctx, prompt, request)}; on entry {@code modernServerPrompt(...)}. */
    static final Weave SERVER_PROMPT = Weave.enterUnlessNull("modernServerPrompt", Weave.THIS, 0, 1, 2, Weave.SELF);

    /**
     * Server lists: what a feature's {@code handle(ctx, params)} returns becomes {@code modernServerList(result, ctx)}
     * ({@code tools/list}, {@code resources/list}, {@code resources/templates/list}, {@code prompts/list} filtered).
     */
    static final Weave SERVER_LIST = Weave.replaceReturn("modernServerList", 0);

    /**
     * Sync client: on entry to {@code ToolSpec.call()}/{@code callOnce()}, {@code modernClientCall(spec, self)}; a denial is
     * returned, never sent; a call whose answer a result rule judges is sent by the hook through {@code self}.
     */
    static final Weave SYNC_CALL = Weave.enterUnlessNull("modernClientCall", Weave.THIS, Weave.SELF);

    /** Sync client {@code ResourceSpec.read()}/{@code readOnce()}, {@code PromptSpec.get()}/{@code getOnce()}: as {@link #SYNC_CALL}. */
    static final Weave SYNC_REQUEST = Weave.enterUnlessNull("modernClientRequest", Weave.THIS, Weave.SELF);

    /** Async client resource reads and prompt gets: the {@code Mono} becomes one that decides when subscribed. */
    static final Weave ASYNC_REQUEST = Weave.replaceReturn("modernClientRequestAsync", Weave.THIS);

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
                new Modern(PACKAGE + "server/feature/ResourcesFeature", List.of(
                        new TypeInstrumentation.Hook("resources/read", method(Opcodes.ACC_PRIVATE, "read", 3, CONTEXT, MONO), SERVER_READ, 1, 1),
                        new TypeInstrumentation.Hook("resources/list", method(Opcodes.ACC_PUBLIC, "handle", 2, CONTEXT, MONO), SERVER_LIST, 1, 1))),
                new Modern(PACKAGE + "server/feature/PromptsFeature", List.of(
                        new TypeInstrumentation.Hook("prompts/get", method(Opcodes.ACC_PRIVATE, "get", 3, CONTEXT, MONO), SERVER_PROMPT, 1, 1),
                        new TypeInstrumentation.Hook("prompts/list", method(Opcodes.ACC_PUBLIC, "handle", 2, CONTEXT, MONO), SERVER_LIST, 1, 1))),
                new Modern(client + "McpSyncClient$ToolSpec", List.of(
                        new TypeInstrumentation.Hook("call", method(Opcodes.ACC_PUBLIC, "call", 0, null, SCHEMA + "CallToolResult;"), SYNC_CALL, 1, 1),
                        new TypeInstrumentation.Hook("callOnce", method(Opcodes.ACC_PUBLIC, "callOnce", 0, null, SCHEMA + "CallToolOutcome;"),
                                SYNC_CALL, 1, 1))),
                new Modern(client + "McpAsyncClient$ToolSpec", List.of(
                        new TypeInstrumentation.Hook("call", method(Opcodes.ACC_PUBLIC, "call", 0, null, MONO), ASYNC_CALL, 1, 1),
                        new TypeInstrumentation.Hook("callOnce", method(Opcodes.ACC_PUBLIC, "callOnce", 0, null, MONO), ASYNC_CALL, 1, 1))),
                new Modern(client + "McpSyncClient$ResourceSpec", List.of(
                        new TypeInstrumentation.Hook("read", method(Opcodes.ACC_PUBLIC, "read", 0, null, SCHEMA + "ReadResourceResult;"), SYNC_REQUEST, 1, 1),
                        new TypeInstrumentation.Hook("readOnce", method(Opcodes.ACC_PUBLIC, "readOnce", 0, null, SCHEMA + "ReadResourceOutcome;"),
                                SYNC_REQUEST, 1, 1))),
                new Modern(client + "McpAsyncClient$ResourceSpec", List.of(
                        new TypeInstrumentation.Hook("read", method(Opcodes.ACC_PUBLIC, "read", 0, null, MONO), ASYNC_REQUEST, 1, 1),
                        new TypeInstrumentation.Hook("readOnce", method(Opcodes.ACC_PUBLIC, "readOnce", 0, null, MONO), ASYNC_REQUEST, 1, 1))),
                new Modern(client + "McpSyncClient$PromptSpec", List.of(
                        new TypeInstrumentation.Hook("get", method(Opcodes.ACC_PUBLIC, "get", 0, null, SCHEMA + "GetPromptResult;"), SYNC_REQUEST, 1, 1),
                        new TypeInstrumentation.Hook("getOnce", method(Opcodes.ACC_PUBLIC, "getOnce", 0, null, SCHEMA + "GetPromptOutcome;"),
                                SYNC_REQUEST, 1, 1))),
                new Modern(client + "McpAsyncClient$PromptSpec", List.of(
                        new TypeInstrumentation.Hook("get", method(Opcodes.ACC_PUBLIC, "get", 0, null, MONO), ASYNC_REQUEST, 1, 1),
                        new TypeInstrumentation.Hook("getOnce", method(Opcodes.ACC_PUBLIC, "getOnce", 0, null, MONO), ASYNC_REQUEST, 1, 1))),
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
