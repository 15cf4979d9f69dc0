package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.WovenClasses.bytes;
import static dev.mcppolicy.agent.instrumentation.WovenClasses.internalName;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.Stderr;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.status.AgentStatus;
import dev.mcppolicy.agent.status.StartupSummary;
import java.util.ArrayList;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The weaves on methods javac compiled in the SDK's own shapes (handler lambdas capturing {@code this}
 * or not, a loop at a lambda's first instruction, several returns), loaded through a class loader that
 * defines the woven bytes: the JVM verifies them, then they run against a recording bridge.
 */
class HookTransformerTest {
    private final RecordingHooks bridge = new RecordingHooks();

    @AfterEach
    void uninstall() {
        PolicyBridge.install(null);
    }

    @Test
    void serverCallRunsTheHandlerWhenTheBridgeSaysNullAndSeesServerExchangeAndParams() throws Exception {
        Class<?> type = wovenAs(StatefulServer.class, new McpAsyncServerInstrumentation());
        Object server = type.getDeclaredConstructor().newInstance();

        assertThat(call(server, "toolsCallRequestHandler", "exchange-1", "params-1")).isEqualTo("ran params-1");
        assertThat(bridge.seen).containsExactly(List.of("serverCall", server, "exchange-1", "params-1"));
        assertThat(type.getField("ran").get(server)).isEqualTo(List.of("params-1"));
    }

    @Test
    void serverCallDenialIsReturnedAndTheHandlerNeverRuns() throws Exception {
        Class<?> type = wovenAs(StatefulServer.class, new McpAsyncServerInstrumentation());
        Object server = type.getDeclaredConstructor().newInstance();
        bridge.serverCallAnswer = Mono.just("denied");

        assertThat(call(server, "toolsCallRequestHandler", "exchange-1", "params-1")).isEqualTo("denied");
        assertThat(type.getField("ran").get(server)).isEqualTo(List.of());
    }

    @Test
    void serverCallInAStaticLambdaPassesNoServerAndKeepsALoopAtTheFirstInstruction() throws Exception {
        Class<?> type = wovenAs(StatelessServer.class, new McpStatelessAsyncServerInstrumentation());
        Object server = type.getDeclaredConstructor().newInstance();

        assertThat(call(server, "toolsCallRequestHandler", "context-1", 3)).isEqualTo("ran 0");
        assertThat(bridge.seen).containsExactly(java.util.Arrays.asList("serverCall", null, "context-1", 3));

        bridge.serverCallAnswer = Mono.just("denied");
        assertThat(call(server, "toolsCallRequestHandler", "context-1", 3)).isEqualTo("denied");
    }

    @Test
    void serverCallPassesTheLambdasOwnHandleWhichRunsItAgainLaterInstanceOrStatic() throws Throwable {
        Class<?> stateful = wovenAs(StatefulServer.class, new McpAsyncServerInstrumentation());
        Object server = stateful.getDeclaredConstructor().newInstance();
        call(server, "toolsCallRequestHandler", "exchange-1", "params-1");
        assertThat(bridge.handler.type().parameterCount()).as("receiver, exchange, params").isEqualTo(3);
        assertThat(((Mono<?>) bridge.handler.invoke(server, "exchange-2", "params-2")).block()).isEqualTo("ran params-2");
        assertThat(bridge.seen).as("run through its handle, the lambda enters the hook again")
                .containsExactly(List.of("serverCall", server, "exchange-1", "params-1"), List.of("serverCall", server, "exchange-2", "params-2"));

        Class<?> stateless = wovenAs(StatelessServer.class, new McpStatelessAsyncServerInstrumentation());
        Object statelessServer = stateless.getDeclaredConstructor().newInstance();
        call(statelessServer, "toolsCallRequestHandler", "context-1", 3);
        assertThat(bridge.handler.type().parameterCount()).as("a static lambda: context, params").isEqualTo(2);
        assertThat(((Mono<?>) bridge.handler.invoke("context-2", 2)).block()).isEqualTo("ran 0");
    }

    @Test
    void serverListResultIsReplacedOnEveryReturn() throws Exception {
        for (Class<?> sample : List.of(StatefulServer.class, StatelessServer.class)) {
            bridge.seen.clear();
            Class<?> type = wovenAs(sample, new McpAsyncServerInstrumentation());
            Object server = type.getDeclaredConstructor().newInstance();

            assertThat(call(server, "toolsListRequestHandler", "exchange-1", null)).isEqualTo("filtered(all)");
            assertThat(call(server, "toolsListRequestHandler", "exchange-2", "cursor")).isEqualTo("filtered(page cursor)");
            assertThat(bridge.seen).extracting(seen -> seen.subList(0, 1).get(0) + " " + seen.get(2))
                    .containsExactly("serverList exchange-1", "serverList exchange-2");
        }
    }

    @Test
    void clientCallAndListResultsGoThroughTheBridgeOnEveryReturn() throws Exception {
        Class<?> type = wovenAs(Client.class, new McpAsyncClientInstrumentation());
        Object client = type.getDeclaredConstructor().newInstance();

        Mono<?> sent = (Mono<?>) type.getMethod("callTool", Object.class).invoke(client, "request-1");
        Mono<?> empty = (Mono<?>) type.getMethod("callTool", Object.class).invoke(client, (Object) null);
        Mono<?> listed = (Mono<?>) type.getMethod("listTools", String.class).invoke(client, "cursor");

        assertThat(sent.block()).isEqualTo("decided(sent request-1)");
        assertThat(empty.block()).isEqualTo("decided(null)");
        assertThat(listed.block()).isEqualTo("filtered(tools cursor)");
        assertThat(bridge.seen).extracting(seen -> seen.get(0) + " " + (seen.get(2) == client) + " " + (seen.size() > 3 ? seen.get(3) : "-"))
                .containsExactly("clientCall true request-1", "clientCall true null", "clientList true -");
        assertThat(type.getMethod("unrelated").invoke(client)).isEqualTo("untouched");
    }

    @Test
    void resourceAndPromptHandlersAndListsGoThroughTheBridgeOnBothServerKinds() throws Exception {
        for (Class<?> sample : List.of(StatefulServer.class, StatelessServer.class)) {
            bridge.seen.clear();
            Class<?> type = wovenAs(sample, new McpAsyncServerInstrumentation());
            Object server = type.getDeclaredConstructor().newInstance();

            assertThat(call(server, "resourcesReadRequestHandler", "exchange-1", "uri-1")).isEqualTo("read uri-1");
            assertThat(call(server, "promptsGetRequestHandler", "exchange-1", "prompt-1")).isEqualTo("prompt prompt-1");
            assertThat(call(server, "resourcesListRequestHandler", "exchange-1", null)).isEqualTo("resources");
            assertThat(call(server, "resourceTemplateListRequestHandler", "exchange-1", null)).isEqualTo("templates");
            assertThat(call(server, "promptsListRequestHandler", "exchange-1", null)).isEqualTo("prompts");
            assertThat(bridge.seen).as(sample.getSimpleName()).extracting(seen -> seen.get(0) + " " + seen.get(2))
                    .containsExactly("serverAsk resource exchange-1", "serverAsk prompt exchange-1", "serverListed resources exchange-1",
                            "serverListed resourceTemplates exchange-1", "serverListed prompts exchange-1");
        }
    }

    @Test
    void clientReadsPromptsAndTheirListsGoThroughTheBridge() throws Exception {
        Class<?> type = wovenAs(Client.class, new McpAsyncClientInstrumentation());
        Object client = type.getDeclaredConstructor().newInstance();

        assertThat(((Mono<?>) type.getMethod("readResource", ReadResourceRequest.class).invoke(client, new ReadResourceRequest("file:///a"))).block())
                .isEqualTo("read file:///a");
        assertThat(((Mono<?>) type.getMethod("getPrompt", Object.class).invoke(client, "p")).block()).isEqualTo("prompt p");
        for (String list : List.of("listResources", "listResourceTemplates", "listPrompts")) {
            type.getMethod(list, String.class).invoke(client, "c");
        }
        assertThat(bridge.seen).extracting(seen -> String.valueOf(seen.get(0)))
                .containsExactly("clientAsk resource", "clientAsk prompt", "clientListed resources", "clientListed resourceTemplates",
                        "clientListed prompts");
    }

    @Test
    void transportContextCallSitesGoThroughTheBridgeWithTheRequestTheyWereMadeWith() throws Exception {
        TypeInstrumentation extractorCalls = new TypeInstrumentation() {
            @Override
            public String internalName() {
                return "renamed/by/wovenAs";
            }

            @Override
            public List<Hook> hooks() {
                return List.of(new Hook("transport context", MethodShape.anyMethod(),
                        Weave.afterCall(WovenClasses.internalName(Extractor.class), "extract", "transportContext"), 0));
            }
        };
        Class<?> type = wovenAs(Transport.class, extractorCalls);
        Object transport = type.getDeclaredConstructor().newInstance();

        assertThat(type.getMethod("doPost", Object.class).invoke(transport, "request-1"))
                .isEqualTo("handled seen(context-for-request-1 of request-1)");
        assertThat(type.getMethod("doGet", Object.class).invoke(transport, "request-2"))
                .isEqualTo("streaming seen(context-for-request-2 of request-2)");
        assertThat(bridge.seen).extracting(seen -> seen.get(0)).containsExactly("transportContext", "transportContext");
    }

    @Test
    void stdioSendsGoThroughTheBridgeInSendMessageAndItsLambdaOnly() throws Exception {
        for (Class<?> sample : List.of(StdioServerSession.class, StdioClient.class)) {
            bridge.seen.clear();
            Class<?> type = wovenAs(sample, new McpStdioTransportInstrumentation(internalName(sample)));
            Object transport = type.getDeclaredConstructor().newInstance();

            Mono<?> sent = (Mono<?>) type.getMethod("sendMessage", Object.class).invoke(transport, "answer-1");
            assertThat(sent.block()).isNull();
            type.getMethod("receive", Object.class).invoke(transport, "request-1");
            assertThat(bridge.seen).as(sample.getSimpleName()).extracting(seen -> seen.get(0) + " " + seen.get(2))
                    .containsExactly("emitSerialized answer-1");
            assertThat(type.getMethod("outbound").invoke(transport)).isEqualTo(List.of("answer-1"));
            assertThat(type.getMethod("inbound").invoke(transport)).isEqualTo(List.of("request-1"));
        }
    }

    @Test
    void sessionMessagesAndClosesReachTheBridgeOnEntryAndTheSessionGoesOnAsItIs() throws Exception {
        TypeInstrumentation.Hook closes = new McpServerSessionInstrumentation().hooks().get(1);
        TypeInstrumentation session = new TypeInstrumentation() {
            @Override
            public String internalName() {
                return "renamed/by/wovenAs";
            }

            @Override
            public List<Hook> hooks() {
                // the real close hook; the message hook's shape with a stand-in for JSONRPCMessage
                return List.of(new Hook("session messages", MethodShape.publicMethod("handle", 1, null, MethodShape.MONO),
                        Weave.enterUnlessNull("serverMessage", Weave.THIS, 0), 1, 1), closes);
            }
        };
        Class<?> type = wovenAs(ServerSession.class, session);
        Object woven = type.getDeclaredConstructor().newInstance();

        assertThat(((Mono<?>) type.getMethod("handle", Object.class).invoke(woven, "message-1")).block()).isEqualTo("handled message-1");
        type.getMethod("close").invoke(woven);
        ((Mono<?>) type.getMethod("closeGracefully").invoke(woven)).block();
        assertThat(bridge.seen).extracting(seen -> seen.get(0) + " " + (seen.get(1) == woven) + (seen.size() > 2 ? " " + seen.get(2) : ""))
                .containsExactly("serverMessage true message-1", "serverSessionClosed true", "serverSessionClosed true");
        assertThat(type.getMethod("closes").invoke(woven)).isEqualTo(2);
    }

    @Test
    void anSdkThatAlreadyEmitsSafelyHasNothingToWeave() {
        Class<?> sample = StdioServerSession21.class;
        HookTransformer transformer = new HookTransformer(List.of(new McpStdioTransportInstrumentation(internalName(sample))),
                new StartupSummary());
        assertThat(transformer.transform(null, null, internalName(sample), null, null, bytes(sample))).isNull();
    }

    @Test
    void aClassWithoutTheShapesIsLeftAloneWithAWarnPerMissingHook() {
        StartupSummary summary = new StartupSummary();
        HookTransformer transformer = new HookTransformer(
                List.of(renamed(new McpAsyncClientInstrumentation(), internalName(StatefulServer.class))), summary);
        byte[][] woven = new byte[1][];
        String err = Stderr.of(() -> woven[0] = transformer.transform(null, null, internalName(StatefulServer.class), null, null,
                bytes(StatefulServer.class)));
        assertThat(woven[0]).isNull();
        assertThat(err).contains(
                "[mcp-policy] WARN NOT instrumented: " + StatefulServer.class.getName() + " (version unknown): no method for callTool",
                "no method for listTools", "these calls are NOT policed");
        assertThat(summary.status().instrumented()).containsExactly(new AgentStatus.Instrumented(StatefulServer.class.getName(),
                "(version unknown)", List.of(), List.of("callTool", "listTools", "readResource", "listResources", "listResourceTemplates",
                        "getPrompt", "listPrompts")));
    }

    @Test
    void aHookThatDecidesCallsAndMatchesTwiceWarns() {
        HookTransformer transformer = new HookTransformer(List.of(renamed(new McpAsyncServerInstrumentation(),
                internalName(TwoCallHandlersServer.class))), new StartupSummary());
        String err = Stderr.of(() -> transformer.transform(null, null, internalName(TwoCallHandlersServer.class), null, null,
                bytes(TwoCallHandlersServer.class)));
        assertThat(err).contains("[mcp-policy] WARN instrumented MORE than expected: "
                + TwoCallHandlersServer.class.getName() + " (version unknown): 2 places for tools/call where the SDK ",
                " shape has 1; a call may be decided and counted twice");
    }

    // --- samples: the shapes of the SDK's dispatch methods, compiled by javac ---

    /** A dispatch method with two handler lambdas: woven twice, a call would be decided twice. */
    public static final class TwoCallHandlersServer {
        public boolean second;

        public BiFunction<Object, Object, Mono<Object>> toolsCallRequestHandler() {
            BiFunction<Object, Object, Mono<Object>> first = (exchange, params) -> Mono.just("first " + params);
            BiFunction<Object, Object, Mono<Object>> other = (exchange, params) -> Mono.just("second " + params);
            return second ? other : first;
        }

        public BiFunction<Object, Object, Mono<Object>> toolsListRequestHandler() {
            return (exchange, params) -> Mono.just("tools");
        }
    }

    /** Like {@code McpAsyncServer}: the handler lambdas capture {@code this}, so they are instance methods. */
    public static final class StatefulServer {
        public final List<Object> ran = new ArrayList<>();

        public BiFunction<Object, Object, Mono<Object>> toolsCallRequestHandler() {
            return (exchange, params) -> {
                ran.add(params);
                return Mono.just("ran " + params);
            };
        }

        public BiFunction<Object, Object, Mono<Object>> toolsListRequestHandler() {
            return (exchange, params) -> {
                if (params == null) {
                    return Mono.just("all" + suffix());
                }
                return Mono.just("page " + params + suffix());
            };
        }

        private String suffix() {
            return ran.isEmpty() ? "" : "!";
        }

        public BiFunction<Object, Object, Mono<Object>> resourcesReadRequestHandler() {
            return (exchange, params) -> Mono.just("read " + params + suffix());
        }

        public BiFunction<Object, Object, Mono<Object>> resourcesListRequestHandler() {
            return (exchange, params) -> Mono.just("resources" + suffix());
        }

        public BiFunction<Object, Object, Mono<Object>> resourceTemplateListRequestHandler() {
            return (exchange, params) -> Mono.just("templates" + suffix());
        }

        public BiFunction<Object, Object, Mono<Object>> promptsGetRequestHandler() {
            return (exchange, params) -> Mono.just("prompt " + params + suffix());
        }

        public BiFunction<Object, Object, Mono<Object>> promptsListRequestHandler() {
            return (exchange, params) -> Mono.just("prompts" + suffix());
        }
    }

    /** Capture nothing: static lambdas, and one whose first instruction is a loop head (a frame at offset 0). */
    public static final class StatelessServer {
        public BiFunction<Object, Object, Mono<Object>> toolsCallRequestHandler() {
            return (context, params) -> {
                while (params instanceof Integer n && n > 0) {
                    params = n - 1;
                }
                return Mono.just("ran " + params);
            };
        }

        public BiFunction<Object, Object, Mono<Object>> toolsListRequestHandler() {
            return (context, params) -> params == null ? Mono.just("all") : Mono.just("page " + params);
        }

        public BiFunction<Object, Object, Mono<Object>> resourcesReadRequestHandler() {
            return (context, params) -> Mono.just("read " + params);
        }

        public BiFunction<Object, Object, Mono<Object>> resourcesListRequestHandler() {
            return (context, params) -> Mono.just("resources");
        }

        public BiFunction<Object, Object, Mono<Object>> resourceTemplateListRequestHandler() {
            return (context, params) -> Mono.just("templates");
        }

        public BiFunction<Object, Object, Mono<Object>> promptsGetRequestHandler() {
            return (context, params) -> Mono.just("prompt " + params);
        }

        public BiFunction<Object, Object, Mono<Object>> promptsListRequestHandler() {
            return (context, params) -> Mono.just("prompts");
        }
    }

    /** Like {@code McpAsyncClient}. */
    public static final class Client {
        public Mono<Object> callTool(Object request) {
            if (request == null) {
                return Mono.just("null");
            }
            return Mono.just("sent " + request);
        }

        public Mono<Object> listTools(String cursor) {
            return Mono.just("tools " + cursor);
        }

        public Mono<Object> readResource(ReadResourceRequest request) {
            return Mono.just("read " + request.uri());
        }

        public Mono<Object> listResources(String cursor) {
            return Mono.just("resources " + cursor);
        }

        public Mono<Object> listResourceTemplates(String cursor) {
            return Mono.just("templates " + cursor);
        }

        public Mono<Object> getPrompt(Object request) {
            return Mono.just("prompt " + request);
        }

        public Mono<Object> listPrompts(String cursor) {
            return Mono.just("prompts " + cursor);
        }

        public String unrelated() {
            return "untouched";
        }
    }

    /** Like the SDK's {@code McpServerSession}: messages in, and two ways to close. */
    public static final class ServerSession {
        private int closes;

        public Mono<Object> handle(Object message) {
            return Mono.just("handled " + message);
        }

        public void close() {
            closes++;
        }

        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(() -> closes++);
        }

        public int closes() {
            return closes;
        }
    }

    /** Like the SDK's {@code McpTransportContextExtractor}. */
    public interface Extractor {
        String extract(Object request);
    }

    /** Like the SDK's servlet transports: each request method asks the extractor for the request's context. */
    public static final class Transport {
        private final Extractor extractor = request -> "context-for-" + request;

        public Object doPost(Object request) {
            String context = extractor.extract(request);
            return "handled " + context;
        }

        public Object doGet(Object request) {
            return "streaming " + extractor.extract(request);
        }
    }

    /** The two sinks of an SDK stdio transport, and what the samples' tests read back from them. */
    public abstract static class StdioSinks {
        protected final Sinks.Many<Object> outboundSink = Sinks.many().unicast().onBackpressureBuffer();
        protected final Sinks.Many<Object> inboundSink = Sinks.many().unicast().onBackpressureBuffer();

        /** The inbound reader's emission: not a send, so never woven. */
        public void receive(Object message) {
            if (!inboundSink.tryEmitNext(message).isSuccess()) {
                throw new IllegalStateException("inbound");
            }
        }

        public List<Object> outbound() {
            outboundSink.tryEmitComplete();
            return outboundSink.asFlux().collectList().block();
        }

        public List<Object> inbound() {
            inboundSink.tryEmitComplete();
            return inboundSink.asFlux().collectList().block();
        }
    }

    /**
     * Like {@code StdioServerTransportProvider$StdioMcpSessionTransport} before 2.1.0: {@code sendMessage}
     * defers to a lambda that emits on the outbound sink.
     */
    public static final class StdioServerSession extends StdioSinks {
        public Mono<Void> sendMessage(Object message) {
            return Mono.defer(() -> {
                if (outboundSink.tryEmitNext(message).isSuccess()) {
                    return Mono.empty();
                }
                return Mono.error(new RuntimeException("Failed to enqueue message"));
            });
        }

        /** In the woven class itself: an emission outside {@code sendMessage} must stay as it is. */
        @Override
        public void receive(Object message) {
            if (!inboundSink.tryEmitNext(message).isSuccess()) {
                throw new IllegalStateException("inbound");
            }
        }
    }

    /** Like {@code StdioClientTransport} before 2.1.0: {@code sendMessage} emits itself. */
    public static final class StdioClient extends StdioSinks {
        public Mono<Void> sendMessage(Object message) {
            if (this.outboundSink.tryEmitNext(message).isSuccess()) {
                return Mono.empty();
            }
            return Mono.error(new RuntimeException("Failed to enqueue message"));
        }
    }

    /** Like 2.1.0's session transport: {@code emitNext} with a busy-looping failure handler, no {@code tryEmitNext}. */
    public static final class StdioServerSession21 {
        private final Sinks.Many<Object> outboundSink = Sinks.many().unicast().onBackpressureBuffer();

        public Mono<Void> sendMessage(Object message) {
            return Mono.defer(() -> {
                outboundSink.emitNext(message, Sinks.EmitFailureHandler.busyLooping(java.time.Duration.ofMillis(100)));
                return Mono.empty();
            });
        }
    }

    // --- plumbing ---

    @SuppressWarnings("unchecked")
    private static Object call(Object server, String factory, Object first, Object second) throws Exception {
        BiFunction<Object, Object, Mono<Object>> handler =
                (BiFunction<Object, Object, Mono<Object>>) server.getClass().getMethod(factory).invoke(server);
        return handler.apply(first, second).block();
    }

    /** The sample woven with the hooks of {@code instrumentation}, defined (and so verified) by a loader of its own. */
    private Class<?> wovenAs(Class<?> sample, TypeInstrumentation instrumentation) throws Exception {
        PolicyBridge.install(bridge);
        HookTransformer transformer = new HookTransformer(List.of(renamed(instrumentation, internalName(sample))), new StartupSummary());
        byte[] woven = transformer.transform(null, null, internalName(sample), null, null, bytes(sample));
        assertThat(woven).as("woven bytes").isNotNull();
        return new WovenClasses.WovenLoader(sample.getName(), woven).loadClass(sample.getName());
    }

    private static TypeInstrumentation renamed(TypeInstrumentation instrumentation, String internalName) {
        return new TypeInstrumentation() {
            @Override
            public String internalName() {
                return internalName;
            }

            @Override
            public List<Hook> hooks() {
                return instrumentation.hooks();
            }
        };
    }


    /** Records every bridge call; answers null / wraps results so a test sees the bridge was on the path. */
    @SuppressWarnings("unchecked")
    private static final class RecordingHooks implements PolicyBridge.Hooks {
        final List<List<Object>> seen = new ArrayList<>();
        Object serverCallAnswer;
        java.lang.invoke.MethodHandle handler;

        @Override
        public Object serverCall(Object server, Object exchangeOrContext, Object params, Object handler) {
            seen.add(java.util.Arrays.asList("serverCall", server, exchangeOrContext, params));
            this.handler = (java.lang.invoke.MethodHandle) handler;
            return serverCallAnswer;
        }

        @Override
        public Object serverList(Object result, Object exchangeOrContext) {
            seen.add(java.util.Arrays.asList("serverList", result, exchangeOrContext));
            return ((Mono<?>) result).map(list -> "filtered(" + list + ")");
        }

        @Override
        public Object clientCall(Object result, Object client, Object request) {
            seen.add(java.util.Arrays.asList("clientCall", result, client, request));
            return ((Mono<?>) result).map(answer -> "decided(" + answer + ")");
        }

        @Override
        public Object clientList(Object result, Object client) {
            seen.add(java.util.Arrays.asList("clientList", result, client));
            return ((Mono<?>) result).map(list -> "filtered(" + list + ")");
        }

        @Override
        public Object transportContext(Object context, Object request) {
            seen.add(java.util.Arrays.asList("transportContext", context, request));
            return "seen(" + context + " of " + request + ")";
        }

        @Override
        public Object emitSerialized(Object sink, Object message) {
            seen.add(java.util.Arrays.asList("emitSerialized", sink, message));
            return ((Sinks.Many<Object>) sink).tryEmitNext(message);
        }

        @Override
        public Object serverMessage(Object session, Object message) {
            seen.add(java.util.Arrays.asList("serverMessage", session, message));
            return null;
        }

        @Override
        public Object serverSessionClosed(Object session) {
            seen.add(java.util.Arrays.asList("serverSessionClosed", session));
            return null;
        }

        @Override
        public Object serverAsk(Object server, Object exchangeOrContext, Object params, Object handler, String kind) {
            seen.add(java.util.Arrays.asList("serverAsk " + kind, server, exchangeOrContext, params));
            return null;
        }

        @Override
        public Object serverListed(Object result, Object exchangeOrContext, String kind, String items, String key) {
            seen.add(java.util.Arrays.asList("serverListed " + items, result, exchangeOrContext));
            return result;
        }

        @Override
        public Object clientAsk(Object result, Object client, Object request, String kind) {
            seen.add(java.util.Arrays.asList("clientAsk " + kind, result, client, request));
            return result;
        }

        @Override
        public Object clientListed(Object result, Object client, String kind, String items, String key) {
            seen.add(java.util.Arrays.asList("clientListed " + items, result, client));
            return result;
        }
    }
}
