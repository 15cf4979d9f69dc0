package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.MethodShape.MONO;
import static dev.mcppolicy.agent.instrumentation.MethodShape.STRING;
import static dev.mcppolicy.agent.instrumentation.MethodShape.publicMethod;

import java.util.List;

/**
 * {@code McpAsyncClient} (sync clients delegate to it), SDK 0.10.0 to 2.2.0: {@code callTool} and the
 * paged {@code listTools(cursor)} / {@code listTools(cursor, meta)} (1.1.5+) that every list goes through; and
 * {@code readResource}, {@code getPrompt} and their paged lists (SPEC §12).
 */
public final class McpAsyncClientInstrumentation implements TypeInstrumentation {
    /**
     * The returned call becomes {@code PolicyBridge.clientCall(call, client, request)}: a {@code Mono}
     * that lets the policy decide when it is subscribed, so a denied call is never sent.
     */
    static final Weave CALL = Weave.replaceReturn("clientCall", Weave.THIS, 0);

    /** Each page of the tool list is mapped to a copy without hidden and outright-denied tools. */
    static final Weave LIST = Weave.replaceReturn("clientList", Weave.THIS);

    /** {@code readResource(ReadResourceRequest)} ({@code readResource(Resource)} calls it) and {@code getPrompt}: as {@link #CALL}. */
    static final Weave READ = Weave.replaceReturn("clientRead", Weave.THIS, 0);
    static final Weave PROMPT = Weave.replaceReturn("clientPrompt", Weave.THIS, 0);
    /** The paged resource, template and prompt lists: filtered as {@link #LIST}. */
    static final Weave RESOURCES = Weave.replaceReturn("clientResources", Weave.THIS);
    static final Weave TEMPLATES = Weave.replaceReturn("clientTemplates", Weave.THIS);
    static final Weave PROMPTS = Weave.replaceReturn("clientPrompts", Weave.THIS);
    private static final String READ_REQUEST = "Lio/modelcontextprotocol/spec/McpSchema$ReadResourceRequest;";

    @Override
    public String internalName() {
        return "io/modelcontextprotocol/client/McpAsyncClient";
    }

    @Override
    public List<Hook> hooks() {
        return List.of(
                new Hook("callTool", publicMethod("callTool", 1, null, MONO), CALL, 1, 1),
                new Hook("listTools", publicMethod("listTools", -1, STRING, MONO), LIST, 1),
                new Hook("readResource", publicMethod("readResource", 1, READ_REQUEST, MONO), READ, 1, 1),
                new Hook("listResources", publicMethod("listResources", -1, STRING, MONO), RESOURCES, 1),
                new Hook("listResourceTemplates", publicMethod("listResourceTemplates", -1, STRING, MONO), TEMPLATES, 1),
                new Hook("getPrompt", publicMethod("getPrompt", 1, null, MONO), PROMPT, 1, 1),
                new Hook("listPrompts", publicMethod("listPrompts", -1, STRING, MONO), PROMPTS, 1));
    }
}
