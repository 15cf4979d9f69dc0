package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.WovenClasses.bytes;
import static dev.mcppolicy.agent.instrumentation.WovenClasses.internalName;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.mcp.client.transport.McpTransport;
import dev.mcppolicy.agent.Stderr;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.status.AgentStatus;
import dev.mcppolicy.agent.status.StartupSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The LangChain4j {@code DefaultMcpClient} weaves on javac-compiled samples of its shapes (1.0: {@code String
 * executeTool(request)}; 1.11+: a {@code ToolExecutionResult} and an {@code (request, invocationContext)}
 * overload the one-argument method delegates to), defined from the woven bytes so the JVM verifies them,
 * and a class of an unknown shape, which must be a WARN naming it.
 */
class LangChain4jClientInstrumentationTest {
    private final RecordingHooks bridge = new RecordingHooks();

    @AfterEach
    void uninstall() {
        PolicyBridge.installLangChain4j(null);
    }

    @Test
    void aDeniedCallReturnsTheBridgesAnswerWithoutRunningAndAnAllowedOneRuns() throws Exception {
        Class<?> type = wovenAs(Client10.class);
        Object client = type.getDeclaredConstructor().newInstance();

        assertThat(type.getMethod("executeTool", ToolExecutionRequest.class).invoke(client, new ToolExecutionRequest("echo")))
                .isEqualTo("sent echo");
        assertThat(type.getMethod("executeTool", ToolExecutionRequest.class).invoke(client, new ToolExecutionRequest("deny")))
                .isEqualTo("denied deny");
        assertThat(type.getField("sent").get(client)).isEqualTo(List.of("echo"));
        assertThat(type.getMethod("listTools").invoke(client)).isEqualTo(List.of("filtered", "a", "b"));
        assertThat(bridge.seen).containsExactly("call echo", "call deny", "list");
    }

    @Test
    void readsGetsAndTheirListsReachTheBridge() throws Exception {
        Class<?> type = wovenAs(Client111.class);
        Object client = type.getDeclaredConstructor().newInstance();
        assertThat(type.getMethod("readResource", String.class).invoke(client, "file:///a")).isEqualTo("contents of file:///a");
        assertThat(type.getMethod("getPrompt", String.class, java.util.Map.class).invoke(client, "p", java.util.Map.of())).isEqualTo("prompt p");
        assertThat(type.getMethod("listResources").invoke(client)).isEqualTo(List.of("r"));
        assertThat(type.getMethod("listPrompts").invoke(client)).isEqualTo(List.of("p"));
        // readResource(uri) first, then the overload it delegates to
        assertThat(bridge.seen).containsExactly("resource file:///a", "resource file:///a", "prompt p", "listed", "listed");
    }

    @Test
    void theInitializeAnswerPassesTheBridgeWithItsRequestAndClientOnTheWayToTheClient() throws Exception {
        Class<?> type = wovenAs(Client10.class);
        Object client = type.getDeclaredConstructor().newInstance();
        type.getMethod("connect").invoke(client);
        assertThat(type.getField("answer").get(client)).isEqualTo("read: answer to init");
        assertThat(bridge.seen).containsExactly("initialized");
        assertThat(bridge.initializedBy).containsExactly(client);
    }

    @Test
    void bothOverloadsReachTheBridgeSoItCanDecideOnceInTheOneThatDoesTheWork() throws Exception {
        Class<?> type = wovenAs(Client111.class);
        Object client = type.getDeclaredConstructor().newInstance();

        assertThat(type.getMethod("executeTool", ToolExecutionRequest.class).invoke(client, new ToolExecutionRequest("echo")))
                .isEqualTo("result echo");
        assertThat(type.getMethod("listTools").invoke(client)).isEqualTo(List.of("filtered", "filtered", "a"));
        // the one-argument method comes first, then the overload it delegates to
        assertThat(bridge.seen).containsExactly("call echo", "call-with-context echo", "list", "list");
    }

    @Test
    void aDefaultMcpClientOfAnUnknownShapeIsAWarnNamingItAndItsMissingHooks() {
        StartupSummary summary = new StartupSummary();
        HookTransformer transformer = new HookTransformer(List.of(renamed(internalName(UnknownShapeClient.class))), summary);
        byte[][] woven = new byte[1][];
        String err = Stderr.of(() -> woven[0] = transformer.transform(null, null, internalName(UnknownShapeClient.class), null, null,
                bytes(UnknownShapeClient.class)));
        assertThat(woven[0]).isNull();
        String warn = "[mcp-policy] WARN NOT instrumented: " + UnknownShapeClient.class.getName() + " (version unknown): no method for ";
        assertThat(err).contains(warn + "executeTool (expected langchain4j-mcp " + LangChain4jModule.VERSIONS
                        + " shape); these calls are NOT policed", warn + "listTools (expected langchain4j-mcp ", warn + "readResource (expected",
                        warn + "getPrompt (expected", warn + "resource and prompt lists (expected")
                .doesNotContain("executeTool(request, context)");
        assertThat(summary.status().instrumented()).containsExactly(new AgentStatus.Instrumented(UnknownShapeClient.class.getName(),
                "(version unknown)", List.of(), List.of("executeTool", "listTools", "readResource", "getPrompt", "resource and prompt lists",
                "initialize result")));
    }

    // --- samples: the shapes of DefaultMcpClient, compiled by javac ---

    /** Like langchain4j-mcp 1.0: {@code executeTool} returns the result's text; {@code initialize()} waits on its transport. */
    public static final class Client10 {
        public final List<String> sent = new ArrayList<>();
        public McpTransport transport = request -> CompletableFuture.completedFuture("answer to " + request);
        public Object answer;

        public void connect() throws Exception {
            initialize();
        }

        private void initialize() throws Exception {
            answer = transport.initialize("init").get();
        }

        public String executeTool(ToolExecutionRequest request) {
            sent.add(request.name());
            return "sent " + request.name();
        }

        public List<Object> listTools() {
            return new ArrayList<>(List.of("a", "b"));
        }

        public Object readResource(String uri) {
            return "contents of " + uri;
        }

        public Object getPrompt(String name, java.util.Map<String, Object> arguments) {
            return "prompt " + name;
        }

        public List<Object> listResources() {
            return new ArrayList<>(List.of("r"));
        }

        public List<Object> listResourceTemplates() {
            return new ArrayList<>();
        }

        public List<Object> listPrompts() {
            return new ArrayList<>(List.of("p"));
        }
    }

    /** Like 1.11+: the one-argument methods delegate to the invocation-context overloads. */
    public static final class Client111 {
        public Object executeTool(ToolExecutionRequest request) {
            return executeTool(request, null);
        }

        public Object executeTool(ToolExecutionRequest request, Object invocationContext) {
            return "result " + request.name();
        }

        public List<Object> listTools() {
            return listTools(null);
        }

        public List<Object> listTools(Object invocationContext) {
            return new ArrayList<>(List.of("a"));
        }

        public Object readResource(String uri) {
            return readResource(uri, null);
        }

        public Object readResource(String uri, Object invocationContext) {
            return "contents of " + uri;
        }

        public Object getPrompt(String name, java.util.Map<String, Object> arguments) {
            return "prompt " + name;
        }

        public List<Object> listResources() {
            return new ArrayList<>(List.of("r"));
        }

        public List<Object> listResourceTemplates() {
            return new ArrayList<>();
        }

        public List<Object> listPrompts() {
            return new ArrayList<>(List.of("p"));
        }
    }

    /** A shape no supported version has. */
    public static final class UnknownShapeClient {
        public Object run(Object request) {
            return request;
        }
    }

    // --- plumbing ---

    private Class<?> wovenAs(Class<?> sample) throws Exception {
        PolicyBridge.installLangChain4j(bridge);
        HookTransformer transformer = new HookTransformer(List.of(renamed(internalName(sample))), new StartupSummary());
        byte[] woven = transformer.transform(null, null, internalName(sample), null, null, bytes(sample));
        assertThat(woven).as("woven bytes").isNotNull();
        return new WovenClasses.WovenLoader(sample.getName(), woven).loadClass(sample.getName());
    }

    /** The LangChain4j instrumentation on another class name, its shape text kept. */
    private static TypeInstrumentation renamed(String internalName) {
        TypeInstrumentation real = new LangChain4jClientInstrumentation();
        return new TypeInstrumentation() {
            @Override
            public String internalName() {
                return internalName;
            }

            @Override
            public List<Hook> hooks() {
                return real.hooks();
            }

            @Override
            public String expectedShape() {
                return real.expectedShape();
            }
        };
    }


    /** Records each bridge call; denies a request named {@code deny} and marks each list it filters. */
    private static final class RecordingHooks implements PolicyBridge.LangChain4jHooks {
        final List<String> seen = new ArrayList<>();

        @Override
        public Object call(Object client, Object request, Object context, Object call, boolean withContext) {
            String name = ((ToolExecutionRequest) request).name();
            seen.add((withContext ? "call-with-context " : "call ") + name);
            return name.equals("deny") ? "denied " + name : null;
        }

        @Override
        public Object ask(Object client, String kindWord, Object name, Object arguments, Object context, Object call, boolean withContext) {
            seen.add(kindWord + " " + name);
            return null;
        }

        @Override
        public Object specified(Object specifications, Object toolsJson) {
            seen.add("specified");
            return specifications;
        }

        @Override
        public Object listed(Object result, Object client) {
            seen.add("listed");
            return result;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Object list(Object result, Object client) {
            seen.add("list");
            List<Object> marked = new ArrayList<>((List<Object>) result);
            marked.add(0, "filtered");
            return marked;
        }

        final List<Object> initializedBy = new ArrayList<>();

        @Override
        public Object initialized(Object future, Object client) {
            seen.add("initialized");
            initializedBy.add(client);
            return ((CompletableFuture<?>) future).thenApply(answer -> "read: " + answer);
        }
    }
}
