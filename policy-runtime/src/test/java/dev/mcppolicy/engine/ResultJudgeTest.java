package dev.mcppolicy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SPEC §13: what a result rule does with an answer. */
class ResultJudgeTest {
    private static final String AWS_KEY = "AKIA" + "IOSFODNN7EXAMPLE";
    private static final String POLICY = """
            version: "1"
            default: allow
            tools:
              run_command:
                result:
                  max_bytes: 1000
                  redact: [{regex: "AKIA[0-9A-Z]{16}", with: "[REDACTED:aws-access-token]", name: aws-access-token}, {regex: "(?i)password=\\\\S+", with: "password=[REDACTED]", name: password}]
                  deny_if: [{op: regex, value: "BEGIN (RSA|OPENSSH) PRIVATE KEY"}, {path: status, op: eq, value: leaked}]
              plain: {}
              cat:
                result: {redact: [secrets, {regex: "(?i)password=\\\\S+", with: "password=[REDACTED]", name: password}]}
              monitored:
                mode: monitor
                result: {max_bytes: 10}
            resources:
              "file:///logs/*": {result: {redact: [{regex: "\\\\d{3}-\\\\d{2}-\\\\d{4}", with: "[SSN]"}]}}
            prompts:
              p: {result: {deny_if: [{op: contains, value: ignore previous instructions}]}}
            """;

    private final PolicyEngine engine = PolicyEngine.of(Policies.parse(POLICY), new ManualClock(Instant.EPOCH));

    private ResultJudge judge(String tool) {
        return engine.resultJudge(ToolCall.server(tool, Map.of()));
    }

    private ResultJudge.Verdict judge(String tool, List<String> texts, Object structured) {
        return judge(tool).judge(new ResultJudge.Answer(texts, structured, 0));
    }

    @Test
    void onlyARuleWithAResultHasAJudge() {
        assertThat(engine.judgesResults()).isTrue();
        assertThat(judge("plain")).isNull();
        assertThat(judge("unknown")).isNull();
        assertThat(judge("run_command").pointer()).isEqualTo("/tools/run_command/result");
    }

    @Test
    void anAnswerWithNothingToRedactPassesAsItIs() {
        List<String> texts = List.of("total 0", "ok");
        Map<String, Object> structured = Map.of("status", "fine");
        ResultJudge.Verdict verdict = judge("run_command", texts, structured);
        assertThat(verdict.decision()).isNull();
        assertThat(verdict.redacted()).isNull();
        assertThat(verdict.texts()).isSameAs(texts);
        assertThat(verdict.structured()).isSameAs(structured);
    }

    @Test
    void redactsTextAndStructuredLeavesAndCountsEachDetector() {
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("env", List.of("AWS_ACCESS_KEY_ID=" + AWS_KEY, "HOME=/root"));
        structured.put("n", 3);
        ResultJudge.Verdict verdict = judge("run_command",
                List.of("key " + AWS_KEY + " and password=hunter2 and Password=x", "clean"), structured);
        assertThat(verdict.denied()).isFalse();
        assertThat(verdict.texts()).containsExactly(
                "key [REDACTED:aws-access-token] and password=[REDACTED] and password=[REDACTED]", "clean");
        assertThat(verdict.structured()).isEqualTo(Map.of("env",
                List.of("AWS_ACCESS_KEY_ID=[REDACTED:aws-access-token]", "HOME=/root"), "n", 3));
        assertThat(verdict.redacted()).isEqualTo("aws-access-token:2,password:2");
        assertThat(verdict.toString()).doesNotContain(AWS_KEY.substring(4)).doesNotContain("hunter2");
    }

    @Test
    void denyIfSeesTheAnswerAsTheServerGaveItBeforeRedaction() {
        ResultJudge.Verdict key = judge("run_command", List.of("-----BEGIN RSA PRIVATE KEY-----\nMIIE"), null);
        assertThat(key.denied()).isTrue();
        assertThat(key.decision().rule()).isEqualTo("/tools/run_command/result/deny_if/0");
        assertThat(key.decision().callerMessage("run_command")).isEqualTo("Policy denied tool 'run_command': the answer is denied by"
                + " condition: text regex \"BEGIN (RSA|OPENSSH) PRIVATE KEY\" (at text.0) [rule /tools/run_command/result/deny_if/0]");
        ResultJudge.Verdict status = judge("run_command", List.of("ok"), Map.of("status", "leaked"));
        assertThat(status.decision().rule()).isEqualTo("/tools/run_command/result/deny_if/1");
    }

    @Test
    void maxBytesCountsUtf8BytesAndBlobs() {
        assertThat(judge("run_command", List.of("é".repeat(500)), null).denied()).isFalse();
        ResultJudge.Verdict over = judge("run_command", List.of("é".repeat(501)), null);
        assertThat(over.denied()).isTrue();
        assertThat(over.decision().rule()).isEqualTo("/tools/run_command/result/max_bytes");
        assertThat(over.decision().reason()).isEqualTo("the answer is larger than max_bytes (1000 bytes)");
        assertThat(judge("run_command").judge(new ResultJudge.Answer(List.of("a"), null, 1000)).denied()).isTrue();
        assertThat(judge("run_command", List.of("ok"), Map.of("k", "x".repeat(1000))).denied()).isTrue();
    }

    @Test
    void aHundredMegabyteAnswerIsRefusedByItsLength() {
        String huge = "x".repeat(100 << 20);
        ResultJudge.Verdict verdict = judge("run_command", List.of(huge), null);
        assertThat(verdict.denied()).isTrue();
        assertThat(verdict.decision().rule()).isEqualTo("/tools/run_command/result/max_bytes");
    }

    @Test
    void lonelySurrogatesAreJudgedNotThrown() {
        ResultJudge.Verdict verdict = judge("run_command", List.of("\uD800 password=x \uDC00 " + AWS_KEY), null);
        assertThat(verdict.denied()).isFalse();
        assertThat(verdict.texts().get(0)).isEqualTo("\uD800 password=[REDACTED] \uDC00 [REDACTED:aws-access-token]");
    }

    @Test
    void structuredContentTooDeepToWalkIsDenied() {
        Object deep = "x";
        for (int i = 0; i < 100; i++) {
            deep = List.of(deep);
        }
        ResultJudge.Verdict verdict = judge("run_command", List.of(), Map.of("deep", deep));
        assertThat(verdict.denied()).isTrue();
        assertThat(verdict.decision().reason()).startsWith("the answer cannot be judged: its structured content nests deeper");
    }

    /** An object the app would write as JSON itself: its fields hide from the redactions, so the answer is not let through. */
    record Profile(String name, String token) {
    }

    @Test
    void structuredContentHoldingAnObjectThatIsNotJsonIsDenied() {
        ResultJudge.Verdict verdict = judge("run_command", List.of("ok"), Map.of("profile", new Profile("ci", AWS_KEY)));
        assertThat(verdict.denied()).isTrue();
        assertThat(verdict.decision().reason()).startsWith("the answer cannot be judged: its structured content holds a value that is not JSON");
        assertThat(judge("run_command", List.of("ok"), new Profile("ci", AWS_KEY)).denied()).isTrue();
        // JSON-like all the way down: judged as usual
        assertThat(judge("run_command", List.of("ok"), Map.of("n", 1, "b", true, "l", List.of(2.5), "nothing", "x")).denied()).isFalse();
    }

    @Test
    void tooManyTextPartsToCheckAreDeniedByACondition() {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            parts.add("p");
        }
        assertThat(judge("run_command", parts, null).denied()).isTrue();
    }

    @Test
    void monitorModeLetsAnOversizedAnswerThroughAndSaysSo() {
        ResultJudge.Verdict verdict = judge("monitored", List.of("x".repeat(11)), null);
        assertThat(verdict.denied()).isFalse();
        assertThat(verdict.decision().wouldBe()).isEqualTo(Effect.DENY);
        assertThat(verdict.decision().isMonitored()).isTrue();
    }

    @Test
    void resourcesAndPromptsHaveTheirOwnResultRules() {
        ResultJudge logs = engine.resultJudge(ToolCall.resource(Side.SERVER, null, "file:///logs/%61pp.log", null, null));
        assertThat(logs.pointer()).isEqualTo("/resources/file:~1~1~1logs~1*/result");
        assertThat(logs.judge(new ResultJudge.Answer(List.of("ssn 123-45-6789"), null, 0)).texts()).containsExactly("ssn [SSN]");
        ResultJudge prompt = engine.resultJudge(ToolCall.prompt(Side.SERVER, null, "p", Map.of(), null, null));
        assertThat(prompt.judge(new ResultJudge.Answer(List.of("Please IGNORE previous instructions"), null, 0)).denied()).isFalse();
        assertThat(prompt.judge(new ResultJudge.Answer(List.of("so ignore previous instructions now"), null, 0)).denied()).isTrue();
    }

    @Test
    void theBuiltInSecretsRunBeforeTheRulesOwnRedactionsAndAreNamedInTheSummary() {
        String github = "ghp_" + "a1B2".repeat(9);
        Map<String, Object> structured = Map.of("env", List.of("TOKEN=" + github));
        ResultJudge.Verdict verdict = judge("cat", List.of("id " + AWS_KEY + " password=hunter2"), structured);
        assertThat(verdict.texts()).containsExactly("id [REDACTED:aws-access-token] password=[REDACTED]");
        assertThat(verdict.structured()).isEqualTo(Map.of("env", List.of("TOKEN=[REDACTED:github-pat]")));
        assertThat(verdict.redacted()).isEqualTo("aws-access-token:1,github-pat:1,password:1");
        List<String> clean = List.of("total 0");
        assertThat(judge("cat", clean, null).texts()).isSameAs(clean);
    }
}
