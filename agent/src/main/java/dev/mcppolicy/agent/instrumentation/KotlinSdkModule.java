package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.MethodShape.OBJECT;
import static dev.mcppolicy.agent.instrumentation.MethodShape.method;

import java.util.List;
import org.objectweb.asm.Opcodes;

/**
 * The Kotlin MCP SDK ({@code io.modelcontextprotocol:kotlin-sdk-*} {@value #VERSIONS}), which speaks MCP itself on
 * Kotlin coroutines rather than through the MCP Java SDK. Server: {@code Server.handleCallTool},
 * {@code handleReadResource}, {@code handleGetPrompt} and the four {@code handleList...} methods, what every session of
 * every transport runs for {@code tools/call}, {@code resources/read}, {@code prompts/get} and their lists. Client:
 * {@code Client.callTool(request, options)} (which the by-name overload calls too), {@code readResource},
 * {@code getPrompt} and the four lists. Their {@code suspend} methods take a {@code Continuation} last and return their
 * result or {@code COROUTINE_SUSPENDED}.
 */
public final class KotlinSdkModule {
    public static final String VERSIONS = "0.16.0";

    private static final String PACKAGE = "io/modelcontextprotocol/kotlin/sdk/";
    private static final String TYPES = "L" + PACKAGE + "types/";

    /**
     * {@code tools/call}: on entry to {@code handleCallTool(session, request, continuation)},
     * {@code PolicyBridge.kotlinServerCall(server, session, request, continuation, call)}: {@code null} runs it (and
     * every resumption of its state machine), anything else (a denial, or {@code COROUTINE_SUSPENDED} for a call that
     * waits) is returned instead.
     */
    static final Weave SERVER_CALL = Weave.enterUnlessNull("kotlinServerCall", Weave.THIS, 0, 1, 2, Weave.SELF);

    /** {@code resources/read}: on entry to {@code handleReadResource(session, request, continuation)}, as {@link #SERVER_CALL}. */
    static final Weave SERVER_READ = Weave.enterUnlessNull("kotlinServerRead", Weave.THIS, 0, 1, 2, Weave.SELF);

    /** {@code prompts/get}: on entry to {@code handleGetPrompt(session, request, continuation)}, as {@link #SERVER_CALL}. */
    static final Weave SERVER_PROMPT = Weave.enterUnlessNull("kotlinServerPrompt", Weave.THIS, 0, 1, 2, Weave.SELF);

    /**
     * {@code tools/list}, {@code resources/list}, {@code resources/templates/list}, {@code prompts/list}: what
     * {@code handleList...()} returns becomes {@code kotlinServerList(result, server)}.
     */
    static final Weave SERVER_LIST = Weave.replaceReturn("kotlinServerList", Weave.THIS);

    /** Client {@code callTool(request, options, continuation)}: a denial is returned, never sent. */
    static final Weave CLIENT_CALL = Weave.enterUnlessNull("kotlinClientCall", Weave.THIS, 0, 1, 2, Weave.SELF);

    /** Client {@code readResource(request, options, continuation)}: a denial is thrown, never sent. */
    static final Weave CLIENT_READ = Weave.enterUnlessNull("kotlinClientRead", Weave.THIS, 0, 1, 2, Weave.SELF);

    /** Client {@code getPrompt(request, options, continuation)}: a denial is thrown, never sent. */
    static final Weave CLIENT_PROMPT = Weave.enterUnlessNull("kotlinClientPrompt", Weave.THIS, 0, 1, 2, Weave.SELF);

    /**
     * Client {@code listTools}, {@code listResources}, {@code listResourceTemplates}, {@code listPrompts}
     * {@code (request, options, continuation)}: its continuation becomes one that filters the list it
     * gets ({@code kotlinClientListing(continuation, client)}), and a list it returns at once is filtered too.
     */
    static final Weave CLIENT_LIST = Weave.replaceArgumentAndReturn("kotlinClientListing", 2, "kotlinClientList", 2, Weave.THIS);

    private KotlinSdkModule() {
    }

    public static List<TypeInstrumentation> instrumentations() {
        return List.of(
                new Kotlin(PACKAGE + "server/Server", List.of(
                        new TypeInstrumentation.Hook("tools/call", method(Opcodes.ACC_PRIVATE, "handleCallTool", 3,
                                "L" + PACKAGE + "server/ServerSession;", OBJECT), SERVER_CALL, 1, 1),
                        new TypeInstrumentation.Hook("tools/list", method(Opcodes.ACC_PRIVATE, "handleListTools", 0, null,
                                TYPES + "ListToolsResult;"), SERVER_LIST, 1),
                        new TypeInstrumentation.Hook("resources/read", method(Opcodes.ACC_PRIVATE, "handleReadResource", 3,
                                "L" + PACKAGE + "server/ServerSession;", OBJECT), SERVER_READ, 1, 1),
                        new TypeInstrumentation.Hook("resources/list", method(Opcodes.ACC_PRIVATE, "handleListResources", 0, null,
                                TYPES + "ListResourcesResult;"), SERVER_LIST, 1),
                        new TypeInstrumentation.Hook("resources/templates/list", method(Opcodes.ACC_PRIVATE, "handleListResourceTemplates",
                                0, null, TYPES + "ListResourceTemplatesResult;"), SERVER_LIST, 1),
                        new TypeInstrumentation.Hook("prompts/get", method(Opcodes.ACC_PRIVATE, "handleGetPrompt", 3,
                                "L" + PACKAGE + "server/ServerSession;", OBJECT), SERVER_PROMPT, 1, 1),
                        new TypeInstrumentation.Hook("prompts/list", method(Opcodes.ACC_PRIVATE, "handleListPrompts", 0, null,
                                TYPES + "ListPromptsResult;"), SERVER_LIST, 1))),
                new Kotlin(PACKAGE + "client/Client", List.of(
                        new TypeInstrumentation.Hook("callTool", method(Opcodes.ACC_PUBLIC, "callTool", 3, TYPES + "CallToolRequest;", OBJECT),
                                CLIENT_CALL, 1, 1),
                        new TypeInstrumentation.Hook("listTools", method(Opcodes.ACC_PUBLIC, "listTools", 3, TYPES + "ListToolsRequest;", OBJECT),
                                CLIENT_LIST, 1, 1),
                        new TypeInstrumentation.Hook("readResource", method(Opcodes.ACC_PUBLIC, "readResource", 3,
                                TYPES + "ReadResourceRequest;", OBJECT), CLIENT_READ, 1, 1),
                        new TypeInstrumentation.Hook("listResources", method(Opcodes.ACC_PUBLIC, "listResources", 3,
                                TYPES + "ListResourcesRequest;", OBJECT), CLIENT_LIST, 1, 1),
                        new TypeInstrumentation.Hook("listResourceTemplates", method(Opcodes.ACC_PUBLIC, "listResourceTemplates", 3,
                                TYPES + "ListResourceTemplatesRequest;", OBJECT), CLIENT_LIST, 1, 1),
                        new TypeInstrumentation.Hook("getPrompt", method(Opcodes.ACC_PUBLIC, "getPrompt", 3, TYPES + "GetPromptRequest;", OBJECT),
                                CLIENT_PROMPT, 1, 1),
                        new TypeInstrumentation.Hook("listPrompts", method(Opcodes.ACC_PUBLIC, "listPrompts", 3, TYPES + "ListPromptsRequest;",
                                OBJECT), CLIENT_LIST, 1, 1))));
    }

    /** A hooked class of the Kotlin MCP SDK; its misses are measured against this module's shape. */
    record Kotlin(String internalName, List<Hook> hooks) implements TypeInstrumentation {
        @Override
        public String expectedShape() {
            return "the Kotlin MCP SDK " + VERSIONS + " shape";
        }
    }
}
