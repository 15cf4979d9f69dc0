package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.MethodShape.MONO;
import static dev.mcppolicy.agent.instrumentation.MethodShape.STRING;
import static dev.mcppolicy.agent.instrumentation.MethodShape.publicMethod;

import java.util.List;

/**
 * {@code McpAsyncClient} (sync clients delegate to it), SDK 0.10.0 to 2.1.0: {@code callTool} and the
 * paged {@code listTools(cursor)} / {@code listTools(cursor, meta)} (1.1.5+) that every list goes through.
 */
public final class McpAsyncClientInstrumentation implements TypeInstrumentation {
    /**
     * The returned call becomes {@code PolicyBridge.clientCall(call, client, request)}: a {@code Mono}
     * that lets the policy decide when it is subscribed, so a denied call is never sent.
     */
    static final Weave CALL = Weave.replaceReturn("clientCall", Weave.THIS, 0);

    /** Each page of the tool list is mapped to a copy without hidden and outright-denied tools. */
    static final Weave LIST = Weave.replaceReturn("clientList", Weave.THIS);

    @Override
    public String internalName() {
        return "io/modelcontextprotocol/client/McpAsyncClient";
    }

    @Override
    public List<Hook> hooks() {
        return List.of(
                new Hook("callTool", publicMethod("callTool", 1, null, MONO), CALL, 1, 1),
                new Hook("listTools", publicMethod("listTools", -1, STRING, MONO), LIST, 1));
    }
}
