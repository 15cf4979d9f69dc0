package dev.mcppolicy.agent.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicySnapshots;
import dev.mcppolicy.agent.log.DecisionLog;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The hooks with SDK-shaped stand-ins (what {@link ToolLists} and {@link Identity} read by name): one policy snapshot per
 * call and per list, lists that fail closed, and a denial that is never turned into a run.
 */
class McpHooksTest {
    private static final String VALIDATES_INPUT = "{\"version\": \"1\", \"tools\": {\"t\": {\"arguments\": \"input_schema\"}}}";
    private static final String DENIES_ALL = "{\"version\": \"1\", \"default\": \"deny\"}";
    private static final String HIDES = "{\"version\": \"1\", \"default\": \"allow\", \"hide\": [\"secret\"]}";

    /** A tool definition as a server's registry holds it: {@code name()} and {@code inputSchema()}. */
    public record Definition(String name, Map<String, Object> inputSchema) {
    }

    /** A tool as a list holds it. */
    public record Tool(String name) {
    }

    /** A {@code ListToolsResult}: a record with a {@code tools} component. */
    public record Tools(List<Tool> tools, String nextCursor) {
    }

    /** A {@code ListToolsResult} whose components cannot be read. */
    public record Broken(List<Tool> tools) {
        @Override
        public List<Tool> tools() {
            throw new IllegalStateException("cannot read the tools");
        }
    }

    /**
     * A registered tool whose {@code tool()} the agent reads between asking the policy whether it needs
     * the input schema and deciding: the test hook that swaps the policy right there.
     */
    public static final class Specification {
        private final Runnable onRead;

        Specification(Runnable onRead) {
            this.onRead = onRead;
        }

        public Definition tool() {
            onRead.run();
            return new Definition("t", Map.of("type", "object"));
        }
    }

    /** A server: its {@code tools} field holds the specifications. */
    static final class Server {
        @SuppressWarnings("unused") // read by ToolLists through reflection
        private final List<Specification> tools;

        Server(Specification specification) {
            this.tools = List.of(specification);
        }
    }

    /** A client as the hooks read it: {@code getServerInfo().name()}, {@code getClientInfo().name()}. */
    public static final class Client {
        public Tool getServerInfo() {
            return new Tool("fixture-server");
        }

        public Tool getClientInfo() {
            return new Tool("fixture-client");
        }
    }

    private static McpHooks hooks(PolicyHolder holder) {
        return new McpHooks(holder, new DecisionLog(List.of(), false));
    }

    @Test
    void aCallIsDecidedByThePolicyItStartedWithWhateverIsSwappedInMeanwhile() {
        PolicyHolder holder = PolicyHolder.of(PolicySnapshots.of(VALIDATES_INPUT, false));
        Server server = new Server(new Specification(() -> PolicySnapshots.replace(holder, PolicySnapshots.of(DENIES_ALL, false))));
        McpHooks hooks = hooks(holder);

        assertThat(hooks.serverCall(server, null, Map.of("name", "t", "arguments", Map.of()), null))
                .as("allowed by the input_schema rule of the policy the call started with: run the tool").isNull();
        assertThat(holder.current().engine().policy().defaultAction().word()).isEqualTo("deny");
    }

    @Test
    void aDenialThatCannotBeDeliveredNeverRunsTheCallEvenWhenFailingOpen() {
        // no MCP SDK here: building the denial's CallToolResult fails
        PolicyHolder holder = PolicyHolder.of(PolicySnapshots.of(DENIES_ALL, true));

        assertThatThrownBy(() -> hooks(holder).serverCall(null, null, Map.of("name", "t", "arguments", Map.of()), null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("mcp-policy denied tool call 't' and could not deliver the denial");
    }

    @Test
    void aClientCallBeforeThePolicyIsReadWaitsWithoutHoldingAThread() {
        PolicyHolder holder = PolicySnapshots.loading(false);
        Mono<String> sent = Mono.just("sent");
        Mono<?> answer = (Mono<?>) hooks(holder).clientCall(sent, new Client(), Map.of("name", "echo", "arguments", Map.of()));

        java.util.concurrent.CompletableFuture<Object> seen = answer.map(Object.class::cast).toFuture();
        assertThat(seen).as("subscribed, not answered, and the subscribing thread is free again").isNotDone();
        PolicySnapshots.complete(holder, PolicySnapshots.of("{\"version\": \"1\", \"default\": \"allow\"}", false));

        assertThat(seen.join()).as("decided once the policy is read: allowed, so the real call goes on").isEqualTo("sent");
    }

    /** The hooks under test in {@link #aServerCallBeforeThePolicyIsReadRunsItsHandlerOnceItIsAllowed}. */
    private static McpHooks woven;
    private static final java.util.concurrent.atomic.AtomicInteger HANDLER_RUNS = new java.util.concurrent.atomic.AtomicInteger();

    /** A static handler lambda as woven: the hook on entry, then the tool. */
    @SuppressWarnings({"unused", "unchecked"}) // called through its method handle; the hook answers a Mono
    private static Mono<String> handler(Object exchange, Object params) throws ReflectiveOperationException {
        Object answer = woven.serverCall(null, exchange, params, lookupHandler());
        if (answer != null) {
            return (Mono<String>) answer;
        }
        HANDLER_RUNS.incrementAndGet();
        return Mono.just("ran");
    }

    private static java.lang.invoke.MethodHandle lookupHandler() throws ReflectiveOperationException {
        return java.lang.invoke.MethodHandles.lookup().findStatic(McpHooksTest.class, "handler",
                java.lang.invoke.MethodType.methodType(Mono.class, Object.class, Object.class));
    }

    @Test
    void aServerCallBeforeThePolicyIsReadRunsItsHandlerOnceItIsAllowed() throws Exception {
        PolicyHolder holder = PolicySnapshots.loading(false);
        woven = hooks(holder);
        HANDLER_RUNS.set(0);
        Map<String, Object> params = Map.of("name", "echo", "arguments", Map.of());

        Mono<?> answer = handler("exchange", params);
        java.util.concurrent.CompletableFuture<Object> seen = answer.map(Object.class::cast).toFuture();
        assertThat(seen).as("the hook answered at once with a Mono that waits; the calling thread is free").isNotDone();
        assertThat(HANDLER_RUNS).hasValue(0);
        PolicySnapshots.complete(holder, PolicySnapshots.of("{\"version\": \"1\", \"default\": \"allow\"}", false));

        assertThat(seen.get(10, java.util.concurrent.TimeUnit.SECONDS)).as("allowed once read: the handler ran through its handle")
                .isEqualTo("ran");
        assertThat(HANDLER_RUNS).hasValue(1);
        assertThat(handler("exchange", params).block()).as("a later call is decided at once").isEqualTo("ran");
        assertThat(HANDLER_RUNS).hasValue(2);
    }

    @Test
    void aListBeforeThePolicyIsReadIsFilteredOnceItIsRead() throws Exception {
        PolicyHolder holder = PolicySnapshots.loading(false);
        Mono<?> listed = (Mono<?>) hooks(holder).serverList(Mono.just(new Tools(List.of(new Tool("a"), new Tool("secret")), null)), null);
        java.util.concurrent.CompletableFuture<Object> seen = listed.map(Object.class::cast).toFuture();
        assertThat(seen).isNotDone();
        PolicySnapshots.complete(holder, PolicySnapshots.of(HIDES, false));

        assertThat(seen.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(new Tools(List.of(new Tool("a")), null));
    }

    private static final String NEEDS_APPROVAL = "{\"version\": \"1\", \"default\": \"allow\", \"tools\": {\"exec\": "
            + "{\"action\": \"require_approval\", \"approval\": {\"timeout\": \"10m\"}}}}";

    @Test
    void aHeldClientCallIsSentOnlyOnceApprovedAndACancelledOneGivesItsEntryUp() throws Exception {
        PolicyHolder holder = PolicyHolder.of(PolicySnapshots.of(NEEDS_APPROVAL, false));
        dev.mcppolicy.agent.approval.Approvals approvals = new dev.mcppolicy.agent.approval.Approvals(10, java.time.Clock.systemUTC());
        McpHooks hooks = new McpHooks(holder, new DecisionLog(List.of(), false), approvals, false);
        approvals.openChannel(); // the admin endpoint is up
        java.util.concurrent.atomic.AtomicInteger sent = new java.util.concurrent.atomic.AtomicInteger();
        Mono<String> request = Mono.fromCallable(() -> "sent " + sent.incrementAndGet());

        Mono<?> answer = (Mono<?>) hooks.clientCall(request, new Client(), Map.of("name", "exec", "arguments", Map.of("command", "ls")));
        java.util.concurrent.CompletableFuture<Object> seen = answer.map(Object.class::cast).toFuture();
        assertThat(seen).isNotDone();
        assertThat(approvals.pending()).singleElement().satisfies(held -> {
            assertThat(held.call().tool()).isEqualTo("exec");
            assertThat(held.timeout()).isEqualTo(java.time.Duration.ofMinutes(10));
        });
        assertThat(sent).as("not sent while held").hasValue(0);

        approvals.approve(approvals.pending().get(0).id(), "alice", null);
        assertThat(seen.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("sent 1");

        Mono<?> second = (Mono<?>) hooks.clientCall(request, new Client(), Map.of("name", "exec", "arguments", Map.of("command", "ls")));
        reactor.core.Disposable subscription = second.subscribe();
        assertThat(approvals.pending()).hasSize(1);
        subscription.dispose();
        assertThat(approvals.pending()).as("the caller gave up: the entry is gone").isEmpty();
        assertThat(sent).hasValue(1);
    }

    @Test
    void aListIsFilteredByOneSnapshot() {
        PolicyHolder holder = PolicyHolder.of(PolicySnapshots.of(HIDES, false));
        Object listed = ((Mono<?>) hooks(holder).serverList(Mono.just(new Tools(List.of(new Tool("a"), new Tool("secret")), null)), null))
                .block();

        assertThat(listed).isEqualTo(new Tools(List.of(new Tool("a")), null));
    }

    @Test
    void aListThatCannotBeFilteredShowsNoToolWithOnErrorDeny() {
        PolicyHolder holder = PolicyHolder.of(PolicySnapshots.of(HIDES, false));
        Mono<?> listed = (Mono<?>) hooks(holder).serverList(Mono.just(new Broken(List.of(new Tool("secret")))), null);

        assertThatThrownBy(listed::block).isInstanceOf(IllegalStateException.class)
                .hasMessage("mcp-policy could not filter server tools/list and shows no tool (on_error=deny)");
    }

    @Test
    void aListThatCannotBeFilteredIsShownWithOnErrorAllow() {
        PolicyHolder holder = PolicyHolder.of(PolicySnapshots.of(HIDES, true));
        Broken broken = new Broken(List.of(new Tool("secret")));

        assertThat(((Mono<?>) hooks(holder).serverList(Mono.just(broken), null)).block()).isSameAs(broken);
    }

    @Test
    void aListMonoThatCannotBeWrappedFailsTheListWithOnErrorDeny() {
        PolicyHolder holder = PolicyHolder.of(PolicySnapshots.of(HIDES, false));

        // no Reactor behind a String: neither Mono.map nor Mono.error can be reached, so the hook throws into the SDK
        assertThatThrownBy(() -> hooks(holder).serverList("not a Mono", null)).isInstanceOf(IllegalStateException.class)
                .hasMessage("mcp-policy could not filter server tools/list and shows no tool (on_error=deny)");
        assertThat(hooks(PolicyHolder.of(PolicySnapshots.of(HIDES, true))).serverList("not a Mono", null)).isEqualTo("not a Mono");
    }
}
