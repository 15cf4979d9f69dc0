package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.MethodShape.method;

import java.util.List;
import org.objectweb.asm.Opcodes;

/**
 * The Quarkus MCP server ({@code io.quarkiverse.mcp:quarkus-mcp-server-*} {@value #VERSIONS}), which speaks MCP itself
 * on Vert.x rather than through the MCP Java SDK: {@code ToolMessageHandler}, the handler every transport of the
 * extension (stdio, streamable HTTP, SSE, WebSocket) hands {@code tools/call} and {@code tools/list} to, on a Vert.x
 * context; its {@code ResourceMessageHandler}, {@code ResourceTemplateMessageHandler} and {@code PromptMessageHandler}
 * (SPEC §12); and {@code FeatureManagerBase.execute}, whose {@code Future} is each feature's answer (SPEC §13). Server
 * side only (the extension has no MCP client).
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

    /** {@code resources/read} (SPEC §12): on entry to {@code ResourceMessageHandler.resourcesRead(message, request)}, as {@link #SERVER_CALL}. */
    static final Weave SERVER_READ = Weave.enterUnlessNull("quarkusServerRead", Weave.THIS, 0, 1, Weave.SELF);

    /** {@code prompts/get}: on entry to {@code PromptMessageHandler.promptsGet(message, request)}, as {@link #SERVER_CALL}. */
    static final Weave SERVER_PROMPT = Weave.enterUnlessNull("quarkusServerPrompt", Weave.THIS, 0, 1, Weave.SELF);

    /** {@code resources/list}: each {@code add(info.asJson())} of its page, by {@code uri}. */
    static final Weave RESOURCE_LIST = Weave.replaceCall("io/vertx/core/json/JsonArray", "add", "quarkusServerResourceListed");

    /** {@code resources/templates/list}: each template, by {@code uriTemplate}. */
    static final Weave TEMPLATE_LIST = Weave.replaceCall("io/vertx/core/json/JsonArray", "add", "quarkusServerTemplateListed");

    /** {@code prompts/list}: each prompt, by {@code name}. */
    static final Weave PROMPT_LIST = Weave.replaceCall("io/vertx/core/json/JsonArray", "add", "quarkusServerPromptListed");

    /**
     * The answer of a tool, resource or prompt (SPEC §13): the {@code Future} {@code FeatureManagerBase.execute(id, ctx)}
     * returns becomes {@code PolicyBridge.quarkusServerAnswer(future, manager, id)}, which judges it for the call whose
     * hook ran the handler, and is the same {@code Future} for any other.
     */
    static final Weave ANSWER = Weave.replaceReturn("quarkusServerAnswer", Weave.THIS, 0);

    private static final String RUNTIME = "io/quarkiverse/mcp/server/runtime/";

    private QuarkusMcpModule() {
    }

    public static List<TypeInstrumentation> instrumentations() {
        return List.of(new Quarkus(HANDLER, List.of(
                new TypeInstrumentation.Hook("tools/call", method(0, "toolsCall", 2, JSON_OBJECT, FUTURE), SERVER_CALL, 1, 1),
                new TypeInstrumentation.Hook("tools/list", method(0, "toolsList", 2, JSON_OBJECT, FUTURE), SERVER_LIST, 1, 1))),
                new Quarkus(RUNTIME + "ResourceMessageHandler", List.of(
                        new TypeInstrumentation.Hook("resources/read", method(0, "resourcesRead", 2, JSON_OBJECT, FUTURE), SERVER_READ, 1, 1),
                        new TypeInstrumentation.Hook("resources/list", method(0, "resourcesList", 2, JSON_OBJECT, FUTURE), RESOURCE_LIST, 1, 1))),
                new Quarkus(RUNTIME + "ResourceTemplateMessageHandler", List.of(new TypeInstrumentation.Hook("resources/templates/list",
                        method(0, "resourceTemplatesList", 2, JSON_OBJECT, FUTURE), TEMPLATE_LIST, 1, 1))),
                new Quarkus(RUNTIME + "PromptMessageHandler", List.of(
                        new TypeInstrumentation.Hook("prompts/get", method(0, "promptsGet", 2, JSON_OBJECT, FUTURE), SERVER_PROMPT, 1, 1),
                        new TypeInstrumentation.Hook("prompts/list", method(0, "promptsList", 2, JSON_OBJECT, FUTURE), PROMPT_LIST, 1, 1))),
                new Quarkus(RUNTIME + "FeatureManagerBase", List.of(new TypeInstrumentation.Hook("answers",
                        method(Opcodes.ACC_PUBLIC, "execute", 2, "Ljava/lang/String;", FUTURE), ANSWER, 1, 1))));
    }

    /** The hooked class of the Quarkus MCP server; its misses are measured against this module's shape. */
    record Quarkus(String internalName, List<Hook> hooks) implements TypeInstrumentation {
        @Override
        public String expectedShape() {
            return "the quarkus-mcp-server " + VERSIONS + " shape";
        }
    }
}
