package dev.mcppolicy.agent.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.approval.Outcome;
import dev.mcppolicy.agent.approval.PendingCall;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The elicitation channel with SDK-shaped stand-ins (read by name, as the SDK's are): who can be asked, the
 * request built through the request type's static {@code builder()}, the answer applied as the client's, and
 * the request given up once the call is decided elsewhere.
 */
class ElicitationChannelTest {
    private static final Decision HELD = new Decision(Effect.REQUIRE_APPROVAL, Effect.REQUIRE_APPROVAL, "/tools/exec", null, 0);

    public record Implementation(String name) {
    }

    public record Elicitation() {
    }

    public record ClientCapabilities(Elicitation elicitation) {
    }

    /** {@code McpSchema.ElicitRequest}: a record with a static builder. */
    public record ElicitRequest(String message, Map<String, Object> requestedSchema) {
        public static Builder builder() {
            return new Builder();
        }

        public static final class Builder {
            private String message;
            private Map<String, Object> schema;

            public Builder message(String text) {
                this.message = text;
                return this;
            }

            public Builder requestedSchema(Map<String, Object> requested) {
                this.schema = requested;
                return this;
            }

            public ElicitRequest build() {
                return new ElicitRequest(message, schema);
            }
        }
    }

    public enum Action { ACCEPT, DECLINE, CANCEL }

    public record ElicitResult(Action action, Map<String, Object> content) {
    }

    /** An exchange of an SDK with elicitation; {@code reply} answers every request. */
    public static final class AsyncServerExchange {
        private final ClientCapabilities capabilities;
        private final Mono<ElicitResult> reply;
        final AtomicReference<ElicitRequest> asked = new AtomicReference<>();

        AsyncServerExchange(ClientCapabilities capabilities, Mono<ElicitResult> reply) {
            this.capabilities = capabilities;
            this.reply = reply;
        }

        public ClientCapabilities getClientCapabilities() {
            return capabilities;
        }

        public Implementation getClientInfo() {
            return new Implementation("inspector");
        }

        public Mono<ElicitResult> createElicitation(ElicitRequest request) {
            asked.set(request);
            return reply;
        }
    }

    /** An exchange of an SDK without elicitation (0.10). */
    public static final class OldServerExchange {
        public ClientCapabilities getClientCapabilities() {
            return new ClientCapabilities(new Elicitation());
        }
    }

    private final Approvals approvals = new Approvals(10, Clock.systemUTC());
    private final ElicitationChannel channel = new ElicitationChannel(approvals);

    private PendingCall held() {
        return approvals.hold(new ToolCall(Side.SERVER, null, "exec", Map.of("command", "ls"), "s1", "inspector", null), HELD,
                Duration.ofMinutes(5), "abc", false, Approvals.ELICITATION);
    }

    @Test
    void saysWhyAClientCannotBeAsked() {
        assertThat(ElicitationChannel.whyNot(new Object())).isEqualTo("a stateless server has no session to ask through");
        assertThat(ElicitationChannel.whyNot(new OldServerExchange())).startsWith("this MCP SDK has no elicitation");
        assertThat(ElicitationChannel.whyNot(new AsyncServerExchange(null, Mono.never()))).isEqualTo("the client has not initialized");
        assertThat(ElicitationChannel.whyNot(new AsyncServerExchange(new ClientCapabilities(null), Mono.never())))
                .isEqualTo("the client 'inspector' did not declare the elicitation capability");
        assertThat(ElicitationChannel.whyNot(new AsyncServerExchange(new ClientCapabilities(new Elicitation()), Mono.never()))).isNull();
        assertThat(channel.canAsk(new AsyncServerExchange(new ClientCapabilities(new Elicitation()), Mono.never()), "s1")).isTrue();
        assertThat(channel.canAsk(new Object(), "s2")).isFalse();
    }

    @Test
    void theClientsAcceptApprovesAsTheClient() throws Exception {
        AsyncServerExchange exchange = new AsyncServerExchange(new ClientCapabilities(new Elicitation()),
                Mono.just(new ElicitResult(Action.ACCEPT, Map.of("approve", true))));
        PendingCall held = held();
        channel.ask(held, exchange);
        Outcome outcome = held.outcome().get(10, TimeUnit.SECONDS);
        assertThat(outcome.kind()).isEqualTo(Outcome.Kind.APPROVED);
        assertThat(outcome.approver()).isEqualTo("inspector");
        assertThat(outcome.via()).isEqualTo("elicitation");
        assertThat(exchange.asked.get().message()).contains("Approve the tool call 'exec'?").contains("Approval id: " + held.id());
        assertThat(exchange.asked.get().requestedSchema()).containsKey("properties");
    }

    @Test
    void aDeclineDeniesWithTheReason() throws Exception {
        PendingCall held = held();
        channel.ask(held, new AsyncServerExchange(new ClientCapabilities(new Elicitation()),
                Mono.just(new ElicitResult(Action.DECLINE, Map.of("reason", "not today")))));
        Outcome outcome = held.outcome().get(10, TimeUnit.SECONDS);
        assertThat(outcome.kind()).isEqualTo(Outcome.Kind.DENIED);
        assertThat(outcome.reason()).isEqualTo("approval denied by inspector: not today");
    }

    @Test
    void theRequestIsGivenUpWhenTheAdminChannelDecidesFirst() throws Exception {
        AtomicBoolean givenUp = new AtomicBoolean();
        PendingCall held = held();
        channel.ask(held, new AsyncServerExchange(new ClientCapabilities(new Elicitation()),
                Mono.<ElicitResult>never().doOnCancel(() -> givenUp.set(true))));
        assertThat(givenUp).isFalse();
        assertThat(approvals.approve(held.id(), "alice", null)).isEqualTo(Approvals.Answer.DECIDED);
        assertThat(held.outcome().get(10, TimeUnit.SECONDS).via()).isEqualTo("admin");
        assertThat(givenUp).as("the subscription was disposed").isTrue();
    }

    @Test
    void aClientThatAnswersWithAnErrorLeavesTheCallHeld() {
        PendingCall held = held();
        channel.ask(held, new AsyncServerExchange(new ClientCapabilities(new Elicitation()),
                Mono.error(new IllegalStateException("Method not found: elicitation/create"))));
        assertThat(held.outcome()).isNotDone();
        assertThat(approvals.pending()).extracting(PendingCall::id).containsExactly(held.id());
    }
}
