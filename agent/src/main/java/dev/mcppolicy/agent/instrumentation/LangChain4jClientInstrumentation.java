package dev.mcppolicy.agent.instrumentation;

import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * LangChain4j's own MCP client, {@code dev.langchain4j.mcp.client.DefaultMcpClient} ({@code langchain4j-mcp}
 * {@value LangChain4jModule#VERSIONS}; not built on the MCP Java SDK): {@code executeTool} and {@code listTools}.
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

    /** On entry: {@code PolicyBridge.langchain4jCall(client, request)}; a denial is returned, never sent. */
    static final Weave CALL = Weave.enterUnlessNull("langchain4jCall", Weave.THIS, 0);

    /** The same with the invocation context's overload, which always decides. */
    static final Weave CALL_WITH_CONTEXT = Weave.enterUnlessNull("langchain4jCallWithContext", Weave.THIS, 0);

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
