package dev.mcppolicy.agent.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicySnapshots;
import dev.mcppolicy.agent.Stderr;
import dev.mcppolicy.agent.log.DecisionListener;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.log.DecisionRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The LangChain4j hooks with stand-ins shaped like {@code DefaultMcpClient} and {@code ToolSpecification}
 * (read by member name): each call decided once across the two {@code executeTool} overloads, a client the
 * agent cannot read denied by {@code on_error} (or run with {@code on_error=allow}), and a list that cannot
 * be filtered shown empty (or whole).
 */
class LangChain4jHooksTest {
    private static final String HIDES = "{\"version\": \"1\", \"default\": \"allow\", \"hide\": [\"secret\"]}";

    /** A 1.0-shaped client: {@code String executeTool(request)}; no {@code OBJECT_MAPPER}, so its arguments cannot be read. */
    public static final class UnreadableClient {
        public String executeTool(ToolExecutionRequest request) {
            return "sent";
        }

        public String key() {
            return "fixture-key";
        }
    }

    /** A 1.11-shaped client: the one-argument method delegates to the invocation-context overload. */
    public static final class ContextClient {
        public Object executeTool(ToolExecutionRequest request) {
            return executeTool(request, null);
        }

        public Object executeTool(ToolExecutionRequest request, Object invocationContext) {
            return "sent";
        }

        public String key() {
            return "fixture-key";
        }
    }

    /** A {@code ToolSpecification}: {@code name()}. */
    public record Specification(String name) {
    }

    /** A specification whose name cannot be read. */
    public record Broken(String ignored) {
        public String name() {
            throw new IllegalStateException("cannot read the name");
        }
    }

    private final List<DecisionRecord> decided = new ArrayList<>();

    @Test
    void theDelegatingOneArgumentMethodLetsTheCallThroughForTheOverloadToDecide() {
        LangChain4jHooks hooks = hooks(HIDES, false);
        assertThat(hooks.call(new ContextClient(), new ToolExecutionRequest("secret"), null, null, false)).isNull();
        assertThat(decided).isEmpty();
    }

    @Test
    void aClientWhoseArgumentsCannotBeReadIsDeniedWithTheInternalErrorTextAsItsOwnResultType() {
        long before = Diagnostics.adviceErrors();
        Object[] answer = new Object[1];
        String err = Stderr.of(() -> answer[0] = hooks(HIDES, false).call(new UnreadableClient(), new ToolExecutionRequest("echo"), null, null, false));
        assertThat(answer[0]).isInstanceOf(String.class).asString()
                .matches("Policy denied tool 'echo': internal error \\(id [0-9a-f]{8}\\); the app's log has the details \\[rule \\(error\\)]");
        assertThat(Diagnostics.adviceErrors()).isEqualTo(before + 1);
        assertThat(err).contains("advice error in LangChain4j executeTool");
    }

    @Test
    void withOnErrorAllowThatCallRuns() {
        Stderr.of(() -> assertThat(hooks(HIDES, true).call(new UnreadableClient(), new ToolExecutionRequest("echo"), null, null, false)).isNull());
    }

    @Test
    void listsLeaveOutHiddenTools() {
        List<Object> tools = List.of(new Specification("echo"), new Specification("secret"));
        assertThat(hooks(HIDES, false).list(tools, new UnreadableClient())).isEqualTo(List.of(new Specification("echo")));
        List<Object> nothingHidden = List.of(new Specification("echo"));
        assertThat(hooks(HIDES, false).list(nothingHidden, new UnreadableClient())).isSameAs(nothingHidden);
    }

    @Test
    void aListThatCannotBeFilteredShowsNoToolOrWithOnErrorAllowAllOfThem() {
        List<Object> tools = List.of(new Specification("echo"), new Broken("x"));
        Stderr.of(() -> {
            assertThat((List<?>) hooks(HIDES, false).list(tools, new UnreadableClient())).isEmpty();
            assertThat(hooks(HIDES, true).list(tools, new UnreadableClient())).isSameAs(tools);
        });
    }

    /**
     * Before 1.18 the client keeps no initialize result: the agent reads {@code serverInfo.name} from the answer on its
     * way to the client (the future the client waits on completes after that), and the server's section applies.
     */
    @Test
    void theServerNameOfTheInitializeAnswerPicksTheServersSection() throws Exception {
        String policy = "{\"version\": \"1\", \"default\": \"allow\", \"servers\": {\"fixture-server\": {\"hide\": [\"secret\"]}}}";
        LangChain4jHooks hooks = hooks(policy, false);
        UnreadableClient client = new UnreadableClient();
        List<Object> tools = List.of(new Specification("echo"), new Specification("secret"));
        String err = Stderr.of(() -> assertThat(hooks.list(tools, client)).as("the key's section: none").isSameAs(tools));
        assertThat(err).contains("WARN servers section 'fixture-server' matches no server");

        Object answer = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"serverInfo\":{\"name\":\"fixture-server\",\"version\":\"1\"}}}");
        java.util.concurrent.CompletableFuture<Object> sent = new java.util.concurrent.CompletableFuture<>();
        Object waited = hooks.initialized(sent, client);
        assertThat(waited).isInstanceOf(java.util.concurrent.CompletableFuture.class).isNotSameAs(sent);
        sent.complete(answer);
        assertThat(((java.util.concurrent.CompletableFuture<?>) waited).get()).isSameAs(answer);
        assertThat(hooks.list(tools, client)).isEqualTo(List.of(new Specification("echo")));
        assertThat(hooks.initialized("not a future", client)).isEqualTo("not a future");
    }

    /** A section keyed by the client's {@code key}, which applied before the agent read the name, still applies. */
    @Test
    void aSectionKeyedByTheClientsKeyStillAppliesWhenNoneHasTheServersName() {
        String policy = "{\"version\": \"1\", \"default\": \"allow\", \"servers\": {\"fixture-key\": {\"hide\": [\"secret\"]}}}";
        List<Object> tools = List.of(new Specification("echo"), new Specification("secret"));
        String err = Stderr.of(() -> assertThat(hooks(policy, false).list(tools, new UnreadableClient()))
                .isEqualTo(List.of(new Specification("echo"))));
        assertThat(err).doesNotContain("WARN servers section");
    }

    private LangChain4jHooks hooks(String policy, boolean failOpen) {
        DecisionListener recorder = (record, loader) -> decided.add(record);
        return new LangChain4jHooks(PolicyHolder.of(PolicySnapshots.of(policy, failOpen)), new DecisionLog(List.of(recorder), false));
    }
}
