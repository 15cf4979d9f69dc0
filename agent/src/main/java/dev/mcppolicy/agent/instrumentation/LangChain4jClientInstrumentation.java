package dev.mcppolicy.agent.instrumentation;

import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * LangChain4j's own MCP client, {@code dev.langchain4j.mcp.client.DefaultMcpClient} ({@code langchain4j-mcp}
 * {@value LangChain4jModule#VERSIONS}; not built on the MCP Java SDK): {@code executeTool} and {@code listTools}; {@code readResource}, {@code getPrompt} and the resource,
 * template and prompt lists (SPEC §12).
 *
 * <p>{@code executeTool(ToolExecutionRequest)} returns a {@code String} in 1.0.x and a
 * {@code ToolExecutionResult} from 1.6 (the next version served); from 1.11 an
 * {@code executeTool(request, invocationContext)} overload does the work, which the one-argument method
 * delegates to and {@code McpToolExecutor} calls directly. Both are woven; the bridge lets the one-argument
 * method through when its class has the overload, so each call is decided once. {@code listTools()}
 * and {@code listTools(context)} both filter what they return (filtering twice changes nothing). In the private
 * {@code initialize()}, the answer to {@code initialize} is read for the server's name on its way to the client.
 */
public final class LangChain4jClientInstrumentation implements TypeInstrumentation {
    static final String REQUEST = "Ldev/langchain4j/agent/tool/ToolExecutionRequest;";

    /**
     * On entry: {@code PolicyBridge.langchain4jCall(client, request, self)}; a denial is returned, never sent; a call whose
     * answer a result rule judges is sent by the hook through {@code self} and its judged answer returned.
     */
    static final Weave CALL = Weave.enterUnlessNull("langchain4jCall", Weave.THIS, 0, Weave.SELF);

    /** The same with the invocation context's overload, which always decides. */
    static final Weave CALL_WITH_CONTEXT = Weave.enterUnlessNull("langchain4jCallWithContext", Weave.THIS, 0, 1, Weave.SELF);

    /** {@code readResource(uri)} (SPEC §12): as {@link #CALL}; a denial is thrown, as the client throws a JSON-RPC error. */
    static final Weave READ = Weave.enterUnlessNull("langchain4jRead", Weave.THIS, 0, Weave.SELF);

    /** {@code readResource(uri, invocationContext)} (1.11 on), which the one-argument method delegates to. */
    static final Weave READ_WITH_CONTEXT = Weave.enterUnlessNull("langchain4jReadWithContext", Weave.THIS, 0, 1, Weave.SELF);

    /** {@code getPrompt(name, arguments)}: as {@link #READ}. */
    static final Weave PROMPT = Weave.enterUnlessNull("langchain4jPrompt", Weave.THIS, 0, 1, Weave.SELF);

    /** {@code listResources}, {@code listResourceTemplates}, {@code listPrompts} (and their context overloads): filtered. */
    static final Weave LISTED = Weave.replaceReturn("langchain4jListed", Weave.THIS);

    /** The tool list becomes {@code PolicyBridge.langchain4jList(list, client)}: hidden and outright-denied tools left out. */
    static final Weave LIST = Weave.replaceReturn("langchain4jList", Weave.THIS);

    /**
     * In {@code initialize()}, the initialize answer's future {@code McpTransport.initialize(request)} returns becomes
     * {@code PolicyBridge.langchain4jInitialized(future, request, client)}: one that completes once the agent has read
     * the server's {@code serverInfo.name} from it, which LangChain4j before 1.18 does not keep.
     */
    static final Weave INITIALIZED = Weave.afterCallWithThis("dev/langchain4j/mcp/client/transport/McpTransport", "initialize",
            "langchain4jInitialized");

    @Override
    public String internalName() {
        return "dev/langchain4j/mcp/client/DefaultMcpClient";
    }

    @Override
    public List<Hook> hooks() {
        return List.of(
                new Hook("executeTool", executeTool(1), CALL, 1, 1),
                new Hook("executeTool(request, context)", executeTool(2), CALL_WITH_CONTEXT, 0, 1),
                new Hook("listTools", listTools(), LIST, 1),
                new Hook("readResource", named("readResource", 1, "Ljava/lang/String;"), READ, 1, 1),
                new Hook("readResource(uri, context)", named("readResource", 2, "Ljava/lang/String;"), READ_WITH_CONTEXT, 0, 1),
                new Hook("getPrompt", named("getPrompt", 2, "Ljava/lang/String;"), PROMPT, 1, 1),
                new Hook("resource and prompt lists", lists(), LISTED, 3),
                new Hook("initialize result", MethodShape.method(Opcodes.ACC_PRIVATE, "initialize", 0, null, "V"), INITIALIZED, 1, 1));
    }

    @Override
    public String expectedShape() {
        return "langchain4j-mcp " + LangChain4jModule.VERSIONS + " shape";
    }

    /** A public instance {@code executeTool(ToolExecutionRequest[, context])} returning a reference. */
    private static MethodShape executeTool(int arguments) {
        return (access, name, descriptor) -> isPublicInstance(access) && name.equals("executeTool")
                && Type.getArgumentTypes(descriptor).length == arguments
                && Type.getArgumentTypes(descriptor)[0].getDescriptor().equals(REQUEST)
                && Type.getReturnType(descriptor).getSort() == Type.OBJECT;
    }

    /** A public instance {@code name} of {@code arguments} parameters, the first of type {@code first}, returning a reference. */
    private static MethodShape named(String name, int arguments, String first) {
        return (access, method, descriptor) -> isPublicInstance(access) && method.equals(name)
                && Type.getArgumentTypes(descriptor).length == arguments
                && Type.getArgumentTypes(descriptor)[0].getDescriptor().equals(first)
                && Type.getReturnType(descriptor).getSort() == Type.OBJECT;
    }

    /** {@code listResources}, {@code listResourceTemplates} or {@code listPrompts}, with or without a context, returning a {@code java.util.List}. */
    private static MethodShape lists() {
        return (access, name, descriptor) -> isPublicInstance(access)
                && (name.equals("listResources") || name.equals("listResourceTemplates") || name.equals("listPrompts"))
                && Type.getArgumentTypes(descriptor).length <= 1
                && Type.getReturnType(descriptor).getDescriptor().equals("Ljava/util/List;");
    }

    /** A public instance {@code listTools()} or {@code listTools(context)} returning a {@code java.util.List}. */
    private static MethodShape listTools() {
        return (access, name, descriptor) -> isPublicInstance(access) && name.equals("listTools")
                && Type.getArgumentTypes(descriptor).length <= 1
                && Type.getReturnType(descriptor).getDescriptor().equals("Ljava/util/List;");
    }

    private static boolean isPublicInstance(int access) {
        return (access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC | Opcodes.ACC_BRIDGE)) == Opcodes.ACC_PUBLIC;
    }
}
