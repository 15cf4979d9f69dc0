package dev.mcppolicy.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.engine.ResultJudge;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyParser;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The demo's {@code mcp-policy.json} parses with the runtime's own parser and decides the demo
 * session's calls as the README tells (library mode: the engine wired by hand, no agent).
 */
class ShippedPolicyTest {
    private static final Path POLICY = Path.of("mcp-policy.json");
    private static final String AWS_KEY = "AKIA" + "IOSFODNN7EXAMPLE";
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
    private static final String CLIENT = "demo-agent";

    private PolicyEngine engine;

    @BeforeEach
    void loadShippedPolicy() throws Exception {
        engine = PolicyEngine.of(PolicyParser.parse(POLICY), CLOCK);
    }

    @Test
    void parsesAsDefaultDenyWithOneHiddenTool() throws Exception {
        Policy policy = PolicyParser.parse(POLICY);

        assertThat(policy.hide()).containsExactly("sandbox_exec_list");
        assertThat(engine.decide(call("format_disk", Map.of())))
                .extracting(Decision::effect, Decision::rule)
                .containsExactly(Effect.DENY, Decision.DEFAULT_RULE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ls -la", "cat notes.txt", "echo hello from the agent", "pwd", "wc -l notes.txt"})
    void allowsReadOnlyCommands(String command) {
        assertThat(engine.decide(runCommand(command)).effect()).isEqualTo(Effect.ALLOW);
    }

    @Test
    void deniesCommandsOutsideTheReadOnlyList() {
        Decision decision = engine.decide(runCommand("rm -rf ./notes.txt"));

        assertThat(decision.effect()).isEqualTo(Effect.DENY);
        assertThat(decision.rule()).isEqualTo("/tools/run_command/require/0");
        assertThat(decision.reason()).contains("read-only commands");
    }

    @ParameterizedTest
    @CsvSource({
        "cat notes.txt && rm -rf ./notes.txt, /tools/run_command/deny_if/0",
        "ls -la; id,                          /tools/run_command/deny_if/1",
        "ls && id,                            /tools/run_command/deny_if/2",
        "cat notes.txt | sh,                  /tools/run_command/deny_if/3",
        "echo `id`,                           /tools/run_command/deny_if/4",
        "echo $(id),                          /tools/run_command/deny_if/5",
        "echo owned > notes.txt,              /tools/run_command/deny_if/6"})
    void deniesChainingAndRedirectionByArgumentRule(String command, String rule) {
        Decision decision = engine.decide(runCommand(command));

        assertThat(decision.effect()).isEqualTo(Effect.DENY);
        assertThat(decision.rule()).isEqualTo(rule);
    }

    @Test
    void deniesTheEleventhRunCommandOfAMinuteWithRetryAfter() {
        for (int i = 1; i <= 10; i++) {
            assertThat(engine.decide(runCommand("echo burst " + i)).effect()).as("call %d", i).isEqualTo(Effect.ALLOW);
        }

        Decision eleventh = engine.decide(runCommand("echo burst 11"));

        assertThat(eleventh.effect()).isEqualTo(Effect.DENY);
        assertThat(eleventh.rule()).isEqualTo("/tools/run_command/limits/0");
        assertThat(eleventh.retryAfterSeconds()).isBetween(1L, 60L);
        assertThat(engine.decide(new ToolCall(Side.SERVER, null, "run_command", Map.of("command", "ls"), "s2",
                "another-agent", null)).effect()).isEqualTo(Effect.ALLOW);
    }

    @Test
    void hidesSandboxExecListFromListingAndCalls() {
        assertThat(engine.decide(call("sandbox_exec_list", Map.of())).isHidden()).isTrue();
        assertThat(engine.isListed(Side.SERVER, null, "sandbox_exec_list")).isFalse();
        assertThat(List.of("run_command", "sandbox_exec_background", "sandbox_exec_status", "sandbox_exec_kill",
                "read_file", "write_file"))
                .allMatch(tool -> engine.isListed(Side.SERVER, null, tool));
    }

    @Test
    void deniesDeleteToolsWithTheirReason() {
        Decision decision = engine.decide(call("delete_file", Map.of("path", "notes.txt")));

        assertThat(decision.effect()).isEqualTo(Effect.DENY);
        assertThat(decision.rule()).isEqualTo("/tools/delete_*");
        assertThat(decision.reason()).isEqualTo("destructive tools are disabled in this sandbox");
        assertThat(engine.isListed(Side.SERVER, null, "delete_file")).isFalse();
    }

    @Test
    void allowsSmallWritesAndDeniesLargeOnes() {
        assertThat(engine.decide(call("write_file", Map.of("path", "notes.txt", "content", "short"))).effect())
                .isEqualTo(Effect.ALLOW);

        Decision large = engine.decide(call("write_file", Map.of("path", "big.txt", "content", "x".repeat(5000))));

        assertThat(large.effect()).isEqualTo(Effect.DENY);
        assertThat(large.rule()).isEqualTo("/tools/write_file/require/0");
    }

    @Test
    void holdsOnlyBoundedSleepAndTailInTheBackgroundForAPersonsApproval() {
        Decision tail = engine.decide(background(Map.of("command", "tail -n +1 -f progress.log")));
        assertThat(tail).extracting(Decision::effect, Decision::rule)
                .containsExactly(Effect.REQUIRE_APPROVAL, "/tools/sandbox_exec_background");
        assertThat(engine.decide(background(Map.of("command", "sleep 300", "timeoutSeconds", 300))).effect())
                .isEqualTo(Effect.REQUIRE_APPROVAL);
        assertThat(engine.decide(background(Map.of("command", "python3 -m http.server"))).rule())
                .isEqualTo("/tools/sandbox_exec_background/require/0");
        assertThat(engine.decide(background(Map.of("command", "tail -f ../../etc/passwd"))).rule())
                .isEqualTo("/tools/sandbox_exec_background/deny_if/0");
        assertThat(engine.decide(background(Map.of("command", "sleep 5000", "timeoutSeconds", 3600))).rule())
                .isEqualTo("/tools/sandbox_exec_background/deny_if/1");
    }

    @Test
    void allowsReadingFilesAndFollowingBackgroundExecs() {
        assertThat(List.of(
                call("read_file", Map.of("path", "notes.txt")),
                call("sandbox_exec_status", Map.of("execId", "exec-1")),
                call("sandbox_exec_kill", Map.of("execId", "exec-1"))))
                .allMatch(call -> engine.decide(call).effect() == Effect.ALLOW);
    }

    @ParameterizedTest
    @ValueSource(strings = {"file:///sandbox/notes.txt", "file:///sandbox/.env", "file:///sandbox/dir/../notes.txt"})
    void allowsReadingTheSandboxsFilesAsResources(String uri) {
        Decision decision = engine.decide(resource(uri));

        assertThat(decision).extracting(Decision::effect, Decision::rule)
                .containsExactly(Effect.ALLOW, "/resources/file:~1~1~1sandbox~1*");
        assertThat(engine.isListed(Kind.RESOURCE, Side.SERVER, null, uri)).isTrue();
        assertThat(engine.isListed(Kind.RESOURCE, Side.SERVER, null, "file:///sandbox/{path}")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"file:///sandbox/%2e%2e/etc/passwd", "file:///sandbox/..%2Fetc%2Fpasswd", "file:///etc/passwd",
        "file:///sandbox/%252e%252e/etc/shadow", "file:///sandbox/..\\..\\etc\\passwd", "https://example.com/sandbox/x"})
    void deniesEveryOtherResourceByResourceDefaultDeny(String uri) {
        Decision decision = engine.decide(resource(uri));

        assertThat(decision.effect()).isEqualTo(Effect.DENY);
        assertThat(decision.rule()).isEqualTo(Decision.DEFAULT_RULE);
        assertThat(decision.reason()).isEqualTo("no policy rule allows this resource (resource_default: deny)");
        assertThat(engine.isListed(Kind.RESOURCE, Side.SERVER, null, uri)).isFalse();
    }

    @Test
    void redactsSecretsInWhatReadFileRunCommandAndTheSandboxsResourcesReturn() {
        String env = "AWS_ACCESS_KEY_ID=" + AWS_KEY + "\nDATABASE_URL=postgres://app:" + "hunter2-s3cret@db.internal:5432/app\n";
        for (ToolCall call : List.of(call("read_file", Map.of("path", ".env")), runCommand("cat .env"),
                resource("file:///sandbox/.env"))) {
            ResultJudge judge = engine.resultJudge(call);
            assertThat(judge).as(call.tool()).isNotNull();

            ResultJudge.Verdict verdict = judge.judge(new ResultJudge.Answer(List.of(env), Map.of("stdout", env), 0));

            assertThat(verdict.denied()).isFalse();
            assertThat(verdict.texts()).containsExactly("AWS_ACCESS_KEY_ID=[REDACTED:aws-access-token]\n"
                    + "DATABASE_URL=postgres://app:[REDACTED:basic-auth-url]@db.internal:5432/app\n");
            assertThat(verdict.structured()).isEqualTo(Map.of("stdout", verdict.texts().get(0)));
            assertThat(verdict.redacted()).isEqualTo("aws-access-token:2,basic-auth-url:2");
        }
        assertThat(engine.resultJudge(call("write_file", Map.of("path", "notes.txt", "content", "x")))).isNull();
    }

    private static ToolCall resource(String uri) {
        return ToolCall.resource(Side.SERVER, null, uri, "session-1", CLIENT);
    }

    private static ToolCall runCommand(String command) {
        return call("run_command", Map.of("command", command));
    }

    private static ToolCall background(Map<String, ?> arguments) {
        return call("sandbox_exec_background", arguments);
    }

    private static ToolCall call(String tool, Map<String, ?> arguments) {
        return new ToolCall(Side.SERVER, null, tool, arguments, "session-1", CLIENT, null);
    }
}
