package dev.mcppolicy.agent.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.json.CanonicalJson;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a held call's client is asked through elicitation: values only with {@code log_arguments}, else keys
 * and hash; a flat schema; and only {@code accept} with {@code approve: true} approves, and whichever channel
 * decides first wins.
 */
class ApprovalPromptTest {
    private static final Decision HELD = new Decision(Effect.REQUIRE_APPROVAL, Effect.REQUIRE_APPROVAL, "/tools/exec", null, 0);
    private static final Map<String, Object> ARGS = Map.of("command", "rm -rf /tmp/x", "cwd", "/srv");

    private final Approvals approvals = new Approvals(10, Clock.systemUTC());

    private PendingCall held(boolean showArguments) {
        return approvals.hold(new ToolCall(Side.SERVER, null, "exec", ARGS, "s1", "inspector", null), HELD, Duration.ofMinutes(10),
                "abc", showArguments, Approvals.ELICITATION);
    }

    @Test
    void theMessageShowsKeysAndHashUnlessArgumentsMayBeShown() {
        PendingCall held = held(false);
        String message = ApprovalPrompt.message(held);
        assertThat(message).startsWith("Approve the tool call 'exec'? The policy rule /tools/exec requires a person's approval.\n")
                .contains("Argument keys: command, cwd\n")
                .contains("Arguments SHA-256: " + CanonicalJson.sha256(ARGS) + "\n")
                .contains("Approval id: " + held.id() + ". Unanswered, it is denied after 10m.")
                .doesNotContain("rm -rf");
        assertThat(ApprovalPrompt.message(held(true))).contains("Arguments: {\"command\":\"rm -rf /tmp/x\",\"cwd\":\"/srv\"}\n")
                .doesNotContain("Argument keys");
    }

    @Test
    void theSchemaIsOneRequiredBooleanAndAnOptionalReason() {
        Map<String, Object> schema = ApprovalPrompt.requestedSchema();
        assertThat(CanonicalJson.write(schema)).isEqualTo("{\"properties\":{\"approve\":{\"description\":\"Let this one tool call run\","
                + "\"title\":\"Approve\",\"type\":\"boolean\"},\"reason\":{\"description\":\"Optional; the caller reads it when the call"
                + " is denied\",\"title\":\"Reason\",\"type\":\"string\"}},\"required\":[\"approve\"],\"type\":\"object\"}");
        assertThat(schema.get("required")).isEqualTo(List.of("approve"));
    }

    @Test
    void onlyAnAcceptThatApprovesApproves() {
        assertThat(ApprovalPrompt.answer("ACCEPT", Map.of("approve", true))).isEqualTo(new ApprovalPrompt.Answer(true, null));
        assertThat(ApprovalPrompt.answer("accept", Map.of("approve", "true", "reason", " ok "))).isEqualTo(new ApprovalPrompt.Answer(true, "ok"));
        assertThat(ApprovalPrompt.answer("ACCEPT", Map.of("approve", false, "reason", "not on prod")))
                .isEqualTo(new ApprovalPrompt.Answer(false, "not on prod"));
        assertThat(ApprovalPrompt.answer("ACCEPT", Map.of())).isEqualTo(new ApprovalPrompt.Answer(false, "not approved in the client"));
        assertThat(ApprovalPrompt.answer("ACCEPT", null)).isEqualTo(new ApprovalPrompt.Answer(false, "not approved in the client"));
        assertThat(ApprovalPrompt.answer("ACCEPT", Map.of("approve", 1))).extracting(ApprovalPrompt.Answer::approved).isEqualTo(false);
        assertThat(ApprovalPrompt.answer("DECLINE", Map.of("approve", true)))
                .isEqualTo(new ApprovalPrompt.Answer(false, "declined in the client"));
        assertThat(ApprovalPrompt.answer("DECLINE", Map.of("reason", "too risky"))).isEqualTo(new ApprovalPrompt.Answer(false, "too risky"));
        assertThat(ApprovalPrompt.answer("CANCEL", null)).isEqualTo(new ApprovalPrompt.Answer(false, "dismissed in the client"));
        assertThat(ApprovalPrompt.answer(null, null).approved()).isFalse();
    }

    @Test
    void aLongReasonIsCut() {
        Map<String, Object> content = new HashMap<>();
        content.put("reason", "x".repeat(10_000));
        assertThat(ApprovalPrompt.answer("DECLINE", content).reason()).hasSize(ApprovalPrompt.REASON_CAP + 1).endsWith("…");
    }

    @Test
    void theFirstChannelToDecideWinsAndTheOutcomeNamesIt() throws Exception {
        PendingCall held = held(false);
        assertThat(approvals.deny(held.id(), "inspector", "declined in the client", Approvals.ELICITATION)).isEqualTo(Approvals.Answer.DECIDED);
        assertThat(approvals.approve(held.id(), "alice", null)).isEqualTo(Approvals.Answer.ALREADY_DECIDED);
        Outcome outcome = held.outcome().get();
        assertThat(outcome.kind()).isEqualTo(Outcome.Kind.DENIED);
        assertThat(outcome.reason()).isEqualTo("approval denied by inspector: declined in the client");
        assertThat(outcome.note(held.id()).via()).isEqualTo("elicitation");

        PendingCall second = held(false);
        approvals.approve(second.id(), "alice", null);
        assertThat(second.outcome().get().via()).as("the admin channel decided it").isEqualTo("admin");
        assertThat(second.describe()).containsEntry("via", "elicitation");

        PendingCall plain = approvals.hold(new ToolCall(Side.SERVER, null, "exec", ARGS, "s1", "x", null), HELD, Duration.ofMinutes(1),
                "abc", false);
        approvals.approve(plain.id(), "alice", null);
        assertThat(plain.outcome().get().via()).as("a rule that asks the admin channel alone does not name it").isNull();
        assertThat(plain.describe()).doesNotContainKey("via");
    }
}
