package dev.mcppolicy.agent.instrumentation;

import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * LangChain4j's MCP client ({@code dev.langchain4j:langchain4j-mcp}), which speaks MCP itself rather than
 * through the MCP Java SDK: client side only. {@code DefaultMcpClient} (calls, reads, gets, lists), and
 * {@code ToolSpecificationHelper}, which turns the server's {@code tools/list} JSON into the
 * {@code ToolSpecification}s the client keeps: the definitions pinned tools are held to (SPEC §14) are read there,
 * from the JSON the server sent, before LangChain4j's conversion drops what it does not model.
 */
public final class LangChain4jModule {
    public static final String VERSIONS = "1.0.0-beta5 - 1.18.1-beta28";

    /**
     * What the static {@code toolSpecificationListFromMcpResponse(ArrayNode)} returns becomes
     * {@code PolicyBridge.langchain4jSpecified(specifications, toolsJson)}.
     */
    static final Weave SPECIFIED = Weave.replaceReturn("langchain4jSpecified", 0);

    private LangChain4jModule() {
    }

    public static List<TypeInstrumentation> instrumentations() {
        return List.of(new LangChain4jClientInstrumentation(), new Specifications());
    }

    /** {@code ToolSpecificationHelper}: the server's tool definitions as it sent them. */
    record Specifications() implements TypeInstrumentation {
        @Override
        public String internalName() {
            return "dev/langchain4j/mcp/client/ToolSpecificationHelper";
        }

        @Override
        public List<Hook> hooks() {
            return List.of(new Hook("tool definitions (pins)", (access, name, descriptor) -> (access & Opcodes.ACC_STATIC) != 0
                    && name.equals("toolSpecificationListFromMcpResponse") && Type.getArgumentTypes(descriptor).length == 1
                    && Type.getReturnType(descriptor).getDescriptor().equals("Ljava/util/List;"), SPECIFIED, 1, 1));
        }

        @Override
        public String expectedShape() {
            return "langchain4j-mcp " + VERSIONS + " shape";
        }
    }
}
