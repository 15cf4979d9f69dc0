package dev.mcppolicy.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The SPEC §3 example, loaded verbatim (and as its YAML twin), behaves as the spec describes it. */
class SpecExampleTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    @ParameterizedTest
    @ValueSource(strings = {"spec-example.json", "spec-example.yaml"})
    void decidesEachDocumentedCase(String file) throws Exception {
        PolicyEngine engine = engine(file);

        assertThat(engine.decide(call("read_file", Map.of("path", "/etc/hosts"))))
                .isEqualTo(new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/read_file", null, 0));
        assertThat(engine.decide(call("run_command", Map.of("command", "git status --short"))).effect())
                .isEqualTo(Effect.ALLOW);
        assertDenied(engine.decide(call("run_command", Map.of("command", "python -c 1"))),
                "/tools/run_command/require/0", "run_command is limited to read-only commands");
        assertDenied(engine.decide(call("run_command", Map.of("command", "echo x; rm -rf /"))),
                "/tools/run_command/deny_if/0", "run_command is limited to read-only commands");
        assertDenied(engine.decide(call("run_command", Map.of())),
                "/tools/run_command/require/0", "run_command is limited to read-only commands");
        assertDenied(engine.decide(call("delete_account", Map.of())), Decision.HIDDEN_RULE, "tool is hidden by policy");
        assertDenied(engine.decide(call("delete_repo", Map.of())), "/tools/delete_*", "destructive tools are disabled");
        assertDenied(engine.decide(call("write_file", Map.of())), Decision.DEFAULT_RULE,
                "no policy rule allows this tool (default: deny)");
        assertThat(engine.decide(call("sandbox_exec_background", Map.of())).effect()).isEqualTo(Effect.REQUIRE_APPROVAL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"spec-example.json", "spec-example.yaml"})
    void limitsRunCommandToTenAMinutePerClient(String file) throws Exception {
        PolicyEngine engine = engine(file);
        ToolCall alice = call("run_command", Map.of("command", "ls")).withIdentity("s1", "alice");
        ToolCall aliceAgain = call("run_command", Map.of("command", "ls")).withIdentity("s2", "alice");
        ToolCall bob = call("run_command", Map.of("command", "ls")).withIdentity("s3", "bob");

        for (int i = 0; i < 5; i++) {
            assertThat(engine.decide(alice).effect()).isEqualTo(Effect.ALLOW);
            assertThat(engine.decide(aliceAgain).effect()).isEqualTo(Effect.ALLOW);
        }
        Decision refused = engine.decide(alice);
        assertThat(refused.effect()).isEqualTo(Effect.DENY);
        assertThat(refused.rule()).isEqualTo("/tools/run_command/limits/0");
        assertThat(refused.retryAfterSeconds()).isEqualTo(60);
        assertThat(engine.decide(bob).effect()).isEqualTo(Effect.ALLOW);

        clock.advance(Duration.ofMinutes(1));
        assertThat(engine.decide(alice).effect()).isEqualTo(Effect.ALLOW);
    }

    @ParameterizedTest
    @ValueSource(strings = {"spec-example.json", "spec-example.yaml"})
    void appliesTheGithubSectionOnTheClientSideOnly(String file) throws Exception {
        PolicyEngine engine = engine(file);

        assertThat(engine.decide(client("github", "get_issue")).rule()).isEqualTo("/servers/github/tools/get_issue");
        assertThat(engine.decide(client("github", "get_issue")).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(client("github", "read_file")).rule()).isEqualTo("/tools/read_file");
        assertThat(engine.decide(client("gitlab", "read_file")).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(client("gitlab", "get_issue")).rule()).isEqualTo(Decision.DEFAULT_RULE);
        assertThat(engine.decide(call("get_issue", Map.of())).rule()).isEqualTo(Decision.DEFAULT_RULE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"spec-example.json", "spec-example.yaml"})
    void listsOnlyToolsThatCanBeCalled(String file) throws Exception {
        PolicyEngine engine = engine(file);

        assertThat(engine.isListed(Side.SERVER, null, "read_file")).isTrue();
        assertThat(engine.isListed(Side.SERVER, null, "run_command")).isTrue();
        assertThat(engine.isListed(Side.SERVER, null, "delete_account")).isFalse();
        assertThat(engine.isListed(Side.SERVER, null, "delete_repo")).isFalse();
        assertThat(engine.isListed(Side.SERVER, null, "write_file")).isFalse();
    }

    private PolicyEngine engine(String file) throws Exception {
        Policy policy = PolicyParser.parse(PolicyParserTest.text(file), PolicyParser.formatOf(file), file);
        return PolicyEngine.of(policy, clock);
    }

    private static ToolCall call(String tool, Map<String, ?> arguments) {
        return ToolCall.server(tool, arguments);
    }

    private static ToolCall client(String server, String tool) {
        return new ToolCall(Side.CLIENT, server, tool, Map.of(), null, null, null);
    }

    private static void assertDenied(Decision decision, String rule, String reason) {
        assertThat(decision.effect()).isEqualTo(Effect.DENY);
        assertThat(decision.rule()).isEqualTo(rule);
        assertThat(decision.reason()).isEqualTo(reason);
    }
}
