package dev.mcppolicy.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.json.CanonicalJson;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DecisionRecordTest {
    private static final Instant AT = Instant.parse("2026-11-29T12:00:00Z");
    private static final Map<String, Object> ARGS = Map.of("command", "rm -rf /", "cwd", "/tmp");
    private static final String ARGS_SHA = CanonicalJson.sha256(Map.of("cwd", "/tmp", "command", "rm -rf /"));

    private static final ToolCall CALL = new ToolCall(Side.SERVER, null, "run_command", ARGS, "sess-1", "claude-code", null);
    private static final Decision DENIED = new Decision(Effect.DENY, Effect.DENY, "/tools/run_command/deny_if/0",
            "run_command is limited to read-only commands", 0);

    @Test
    void writesTheSpecLogLine() {
        assertThat(new DecisionRecord(AT, CALL, DENIED, 3, false).toLine()).isEqualTo(
                "mcp-policy decision=DENY tool=run_command side=server rule=/tools/run_command/deny_if/0"
                        + " reason=\"run_command is limited to read-only commands\" session=sess-1 client=claude-code"
                        + " arg_keys=command,cwd args_sha256=" + ARGS_SHA + " took_us=3");
    }

    @Test
    void neverWritesArgumentValuesUnlessAskedTo() {
        DecisionRecord record = new DecisionRecord(AT, CALL, DENIED, 3, false);
        assertThat(record.toLine()).doesNotContain("rm -rf").doesNotContain("/tmp");
        assertThat(record.toJson()).doesNotContain("rm -rf").doesNotContain("/tmp");

        DecisionRecord verbose = new DecisionRecord(AT, CALL, DENIED, 3, true);
        assertThat(verbose.toLine()).contains(" args={\"command\":\"rm -rf /\",\"cwd\":\"/tmp\"} took_us=3");
    }

    @Test
    void showsMonitorRateLimitAndClientSideFields() {
        ToolCall clientCall = new ToolCall(Side.CLIENT, "github", "create issue", Map.of(), null, null, null);
        Decision monitored = new Decision(Effect.ALLOW, Effect.DENY, "/tools/x/limits/0", "rate limit exceeded", 12);
        assertThat(new DecisionRecord(AT, clientCall, monitored, 41, false).toLine()).isEqualTo(
                "mcp-policy decision=ALLOW would=DENY tool=\"create issue\" side=client server=github rule=/tools/x/limits/0"
                        + " reason=\"rate limit exceeded\" retry_after=12 session=- client=- arg_keys=\"\" args_sha256="
                        + CanonicalJson.sha256(Map.of()) + " took_us=41");
    }

    @Test
    void writesTheSameFieldsAsOneJsonObject() {
        assertThat(new DecisionRecord(AT, CALL, DENIED, 3, false).toJson()).isEqualTo(
                "{\"ts\":\"2026-11-29T12:00:00Z\",\"decision\":\"DENY\",\"would\":\"DENY\",\"tool\":\"run_command\","
                        + "\"side\":\"server\",\"server\":null,\"rule\":\"/tools/run_command/deny_if/0\","
                        + "\"reason\":\"run_command is limited to read-only commands\",\"retry_after\":0,"
                        + "\"session\":\"sess-1\",\"client\":\"claude-code\",\"arg_keys\":[\"command\",\"cwd\"],"
                        + "\"args_sha256\":\"" + ARGS_SHA + "\",\"took_us\":3}");
    }

    @Test
    void hashesArgumentsCanonicallyWhateverTheirOrderAndNumberTypes() {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("b", List.of(1, 2.5));
        one.put("a", Map.of("y", 1L, "x", true));
        Map<String, Object> other = new LinkedHashMap<>();
        other.put("a", Map.of("x", true, "y", 1.0));
        other.put("b", List.of(1L, new java.math.BigDecimal("2.50")));
        assertThat(CanonicalJson.write(one)).isEqualTo("{\"a\":{\"x\":true,\"y\":1},\"b\":[1,2.5]}");
        assertThat(CanonicalJson.sha256(one)).isEqualTo(CanonicalJson.sha256(other));
    }

    @Test
    void escapesQuotesAndNewlinesInReasons() {
        Decision tricky = new Decision(Effect.DENY, Effect.DENY, "(error)", "policy unavailable: \"x\"\nline 2", 0);
        assertThat(new DecisionRecord(AT, CALL, tricky, 1, false).toLine())
                .contains(" reason=\"policy unavailable: \\\"x\\\"\\nline 2\" ")
                .doesNotContain("\n");
    }
}
