package dev.mcppolicy.agent.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.Stderr;
import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.agent.config.ConfigKey;
import dev.mcppolicy.agent.status.AgentStatus.CanaryResult;
import dev.mcppolicy.agent.status.AgentStatus.Hooks;
import dev.mcppolicy.agent.status.AgentStatus.Instrumented;
import dev.mcppolicy.agent.status.AgentStatus.PolicyStatus;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyParser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each startup fact is recorded in {@link AgentStatus} and printed as its {@code [mcp-policy]} line. */
class StartupSummaryTest {
    private static final Path CWD = Path.of("/srv/app");

    private final StartupSummary summary = new StartupSummary();

    @Test
    void theConfigurationLineShowsARedisStoreWithItsPasswordMasked() {
        AgentConfig config = AgentConfig.resolve("store=redis://app:hunter2@10.0.0.5:6379", NONE_MAP, Map.of("MCPPOLICY_STORE_PASSWORD", "x"));
        List<String> lines = stderrOf(() -> summary.configured(config, CWD));
        assertThat(lines).singleElement().asString().contains("store=redis://app:***@10.0.0.5:6379 (agent-args)")
                .contains("store_password=(set) (MCPPOLICY_STORE_PASSWORD)").doesNotContain("hunter2");
    }

    private static final Map<String, String> NONE_MAP = Map.of();

    @Test
    void theConfigurationLineShowsEveryKeyWithItsValueAndSource() {
        AgentConfig config = AgentConfig.resolve("log=off,audit=audit/decisions.jsonl", Map.of("mcppolicy.debug", "true"),
                Map.of("MCPPOLICY_ON_ERROR", "allow"));
        List<String> lines = stderrOf(() -> summary.configured(config, CWD));
        assertThat(lines).containsExactly("[mcp-policy] configuration: policy=mcp-policy.json|yaml|yml (default), on_error=allow"
                + " (MCPPOLICY_ON_ERROR), log=off (agent-args), audit=/srv/app/audit/decisions.jsonl (agent-args),"
                + " log_arguments=false (default), log_user=plain (default), otel=true (default), debug=true (-Dmcppolicy.debug), reload=true (default),"
                + " reload_interval=2s (default),"
                + " serialize_stdio=true (default), admin=off (default), admin_token=random (default),"
                + " approval.max_pending=100 (default), store=memory (default), store_password=unset (default),"
                + " store_fail=deny (default), store_timeout=50ms (default), store_key_prefix=mcp-policy: (default)");
        assertThat(summary.status().configuration()).isEqualTo(config.settings());
        assertThat(summary.status().decisionLog()).isEqualTo("off");
    }

    @Test
    void problemsComeFirstAsErrorsAndABadValueShowsTheDefaultInItsPlace() {
        AgentConfig config = AgentConfig.resolve("debug=yes,polcy=x", Map.of(), Map.of());
        List<String> lines = stderrOf(() -> summary.configured(config, CWD));
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("[mcp-policy] ERROR configuration: unknown key 'polcy' in agent-args; did you mean policy?"
                + " (known: policy, on_error, log, audit, log_arguments, log_user, otel, debug, reload, reload_interval, serialize_stdio, admin,"
                + " admin_token,"
                + " approval.max_pending, store, store_password, store_fail, store_timeout, store_key_prefix)");
        assertThat(lines.get(1)).isEqualTo("[mcp-policy] ERROR configuration: debug='yes' (from agent-args) is not one of true|false;"
                + " using the default, debug=false");
        assertThat(lines.get(2)).contains(", debug=false (default; the value in agent-args is not valid), ");
        assertThat(summary.status().configuration().get(ConfigKey.DEBUG.ordinal()).rejected()).isEqualTo("yes");
    }

    @Test
    void reloadIsOnByDefaultAndOffWhenSetSoWithNoWarning() {
        List<String> unset = stderrOf(() -> summary.configured(AgentConfig.resolve(null, Map.of(), Map.of()), CWD));
        assertThat(unset).singleElement().asString().contains(" reload=true (default), reload_interval=2s (default),");

        List<String> off = stderrOf(() -> summary.configured(AgentConfig.resolve("reload=false", Map.of(), Map.of()), CWD));
        assertThat(off).singleElement().asString().contains(" reload=false (agent-args),");
    }

    @Test
    void aReloadIsOneLineOldHashToNewAndARejectionNamesItsErrorsAndTheHashInForce() {
        dev.mcppolicy.policy.Policy policy;
        try {
            policy = dev.mcppolicy.policy.PolicyParser.parse("{\"version\": \"1\", \"default\": \"deny\"}",
                    dev.mcppolicy.policy.PolicyParser.Format.JSON, "p");
        } catch (dev.mcppolicy.policy.PolicyException e) {
            throw new IllegalStateException(e);
        }
        List<String> reloaded = stderrOf(() -> summary.policyReloaded(Path.of("/srv/app/mcp-policy.json"), "aaa", policy));
        assertThat(reloaded).containsExactly("[mcp-policy] policy reloaded: /srv/app/mcp-policy.json sha256=aaa -> " + policy.sha256()
                + " mode=enforce default=deny");
        assertThat(summary.status().policy().sha256()).isEqualTo(policy.sha256());
        assertThat(summary.status().reloadsApplied()).isEqualTo(1);

        List<String> rejected = stderrOf(() -> summary.policyReloadRejected(Path.of("/srv/app/mcp-policy.json"), "bbb", policy.sha256(),
                "/srv/app/mcp-policy.json: 2 errors\n  /a: one\n  /b: two"));
        assertThat(rejected).containsExactly("[mcp-policy] ERROR policy reload rejected: /srv/app/mcp-policy.json sha256=bbb (2 errors);"
                + " the policy in force stays (sha256=" + policy.sha256() + "): /srv/app/mcp-policy.json: 2 errors", "  /a: one", "  /b: two");
        assertThat(summary.status().reloadsRejected()).isEqualTo(1);
        assertThat(summary.status().lastReload().outcome()).isEqualTo(AgentStatus.ReloadResult.Outcome.REJECTED);
        assertThat(summary.status().policy().sha256()).as("still the one in force").isEqualTo(policy.sha256());
    }

    @Test
    void aLoadedPolicyIsItsPathHashModeDefaultAndWarnings() throws Exception {
        Policy policy = PolicyParser.parse("{\"version\":\"1\",\"default\":\"deny\",\"tools\":{\"exec\":{\"deny_if\":"
                + "[{\"path\":\"command\",\"op\":\"contains\",\"value\":\"rm\"}]}}}", PolicyParser.Format.JSON, "p.json");
        Path path = CWD.resolve("mcp-policy.json");
        List<String> lines = stderrOf(() -> summary.policyLoaded(path, policy));

        PolicyStatus status = summary.status().policy();
        assertThat(status.state()).isEqualTo(PolicyStatus.State.LOADED);
        assertThat(status.path()).isEqualTo(path);
        assertThat(status.sha256()).isEqualTo(policy.sha256()).hasSize(64);
        assertThat(status.mode()).isEqualTo("enforce");
        assertThat(status.defaultAction()).isEqualTo("deny");
        assertThat(status.warnings()).isNotEmpty();
        assertThat(lines.get(0)).isEqualTo("[mcp-policy] policy " + path + " sha256=" + policy.sha256() + " mode=enforce default=deny");
        assertThat(lines.subList(1, lines.size())).hasSameSizeAs(status.warnings())
                .allMatch(line -> line.startsWith("[mcp-policy] WARN policy /tools/exec/deny_if: 'exec' looks like it runs commands"));
    }

    @Test
    void anUnavailablePolicyKeepsItsErrorsAndSaysWhatOnErrorDoes() {
        assertThat(summary.status().policy().state()).isEqualTo(PolicyStatus.State.NOT_READ);
        List<String> lines = stderrOf(() -> summary.policyUnavailable(null, "no policy file found (looked for x)", false));
        assertThat(lines).containsExactly("[mcp-policy] ERROR policy unavailable, every tool call will be denied (on_error=deny):"
                + " no policy file found (looked for x)");
        assertThat(summary.status().policy()).isEqualTo(new PolicyStatus(PolicyStatus.State.UNAVAILABLE, null, null, null, null,
                List.of(), "no policy file found (looked for x)"));
        assertThat(stderrOf(() -> summary.policyUnavailable(null, "boom", true)))
                .containsExactly("[mcp-policy] ERROR policy unavailable, every tool call will be ALLOWED unchecked (on_error=allow): boom");
    }

    @Test
    void instrumentedClassesAndMissingHooksAreKeptInLoadOrder() {
        List<String> lines = stderrOf(() -> {
            summary.instrumented("io.mcp.Server", "(mcp 1.0.0)", List.of("tools/call", "tools/list"), List.of(), true);
            summary.instrumented("io.mcp.Client", "(mcp 1.0.0)", List.of("listTools"), List.of("callTool"), true);
            summary.instrumented("the.Canary", "(version unknown)", List.of("canary"), List.of(), false);
        });
        assertThat(lines).containsExactly("[mcp-policy] instrumented io.mcp.Server (mcp 1.0.0): tools/call, tools/list",
                "[mcp-policy] WARN NOT instrumented: io.mcp.Client (mcp 1.0.0): no method for callTool (expected the SDK"
                        + " 0.10.0 - 2.2.0 shape); these calls are NOT policed",
                "[mcp-policy] instrumented io.mcp.Client (mcp 1.0.0): listTools");
        assertThat(summary.status().instrumented()).containsExactly(
                new Instrumented("io.mcp.Server", "(mcp 1.0.0)", List.of("tools/call", "tools/list"), List.of()),
                new Instrumented("io.mcp.Client", "(mcp 1.0.0)", List.of("listTools"), List.of("callTool")));
    }

    @Test
    void hooksAndCanaryOutcomesAreRecorded() {
        assertThat(summary.status().hooks().state()).isEqualTo(Hooks.State.WAITING_FOR_MCP);
        assertThat(summary.status().canary().outcome()).isEqualTo(CanaryResult.Outcome.NOT_RUN);
        List<String> lines = stderrOf(() -> {
            summary.hooksInstalled(12);
            summary.canaryFired();
        });
        assertThat(lines).containsExactly("[mcp-policy] canary: the hooks fire (a woven tools/call handler reached the policy)");
        assertThat(summary.status().hooks()).isEqualTo(new Hooks(Hooks.State.INSTALLED, null));
        assertThat(summary.status().canary()).isEqualTo(new CanaryResult(CanaryResult.Outcome.HOOKS_FIRE, null));

        assertThat(stderrOf(() -> summary.canaryNotChecked(new IllegalStateException("no jar")))).containsExactly(
                "[mcp-policy] ERROR canary: the hooks could not be checked, MCP tool calls may NOT be policed:"
                        + " java.lang.IllegalStateException: no jar");
        assertThat(summary.status().canary().outcome()).isEqualTo(CanaryResult.Outcome.NOT_CHECKED);
    }

    @Test
    void theStatusIsReadOnlySnapshotsAndReadsTheErrorCounts() {
        stderrOf(() -> summary.instrumented("io.mcp.Server", "(mcp 1.0.0)", List.of("tools/call"), List.of(), true));
        List<Instrumented> before = summary.status().instrumented();
        stderrOf(() -> summary.instrumented("io.mcp.Client", "(mcp 1.0.0)", List.of("callTool"), List.of(), true));
        assertThat(before).hasSize(1);
        assertThatThrownBy(() -> before.add(null)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> summary.status().configuration().clear()).isInstanceOf(UnsupportedOperationException.class);

        long errors = summary.status().errors().adviceErrors();
        stderrOf(() -> Diagnostics.adviceError("a status test", new IllegalStateException("x")));
        AgentStatus.Errors after = summary.status().errors();
        assertThat(after.adviceErrors()).isEqualTo(errors + 1);
        assertThat(after.adviceErrorsByKind()).containsEntry("a status test / java.lang.IllegalStateException", 1L);
        assertThatThrownBy(() -> after.adviceErrorsByKind().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theFirstLineIsTheVersion() {
        assertThat(stderrOf(() -> summary.started("1.2.3", "17.0.9", true)))
                .containsExactly("[mcp-policy] mcp-policy-agent 1.2.3 on Java 17.0.9 (attached to a running JVM)");
        assertThat(summary.status().version()).isEqualTo("1.2.3");
        assertThat(summary.status().lateAttach()).isTrue();
    }

    private static List<String> stderrOf(Runnable action) {
        return new ArrayList<>(Stderr.of(action).lines().toList());
    }
}
