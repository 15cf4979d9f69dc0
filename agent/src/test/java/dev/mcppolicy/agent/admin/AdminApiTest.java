package dev.mcppolicy.agent.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicySnapshots;
import dev.mcppolicy.agent.Stderr;
import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.agent.log.RecentDecisions;
import dev.mcppolicy.agent.metrics.DecisionCounters;
import dev.mcppolicy.agent.status.StartupSummary;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.log.DecisionRecord;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.time.ManualClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The admin API's JSON, read from a hand-wired agent state. */
class AdminApiTest {
    private static final String POLICY = """
            { "version": "1", "default": "deny",
              "all_tools": { "limits": [ { "counter": "everything", "window": "minute", "max": 100 } ] },
              "tools": {
                "a": { "limits": [ { "counter": "shared", "window": "hour", "max": 5, "scope": "client" } ] },
                "b": { "limits": [ { "counter": "shared", "window": "hour", "max": 5, "scope": "client" } ] }
              },
              "servers": { "github": { "tools": { "c": { "limits": [ { "window": "day", "max": 2, "scope": "session" } ] } } } } }
            """;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T12:00:00Z"));

    @Test
    void everyCounterOfThePolicyIsListedOnceInPolicyOrder() {
        PolicyHolder holder = PolicyHolder.of(PolicySnapshots.of(POLICY, false));
        List<Limit> limits = AdminApi.limitsOf(holder.current().engine().policy());
        assertThat(limits).extracting(Limit::counter).containsExactly("everything", "shared", "servers/github/tools/c:2/1d/session/sliding");
    }

    @Test
    void limitsShowTheHashedClientKeyWithoutItsMarkerAndCountersNotYetUsed() {
        PolicyHolder holder = PolicyHolder.of(PolicySnapshots.of(POLICY, false));
        String longClient = "x".repeat(300);
        holder.current().decide(new ToolCall(Side.SERVER, null, "a", Map.of(), "s1", longClient, null));
        String json = api(holder, new StartupSummary()).limits();
        assertThat(json).contains("\"counter\":\"shared\"").contains("\"key\":\"sha256:").doesNotContain("\\u0000")
                .doesNotContain(longClient).contains("\"counter\":\"everything\",\"key\":\"global\"")
                .contains("\"counter\":\"servers/github/tools/c:2/1d/session/sliding\",\"key\":null");
    }

    @Test
    void theStatusNeverShowsAConfiguredToken() {
        StartupSummary summary = new StartupSummary();
        AgentConfig config = AgentConfig.resolve("admin=127.0.0.1:0,admin_token=do-not-show-0123456789", Map.of(), Map.of());
        Stderr.of(() -> summary.configured(config, Path.of("/srv/app")));
        String json = api(PolicyHolder.of(PolicySnapshots.of(POLICY, false)), summary).status();
        assertThat(json).doesNotContain("do-not-show").contains("{\"key\":\"admin_token\",\"source\":\"agent-args\",\"value\":\"(set)\"}");
    }

    @Test
    void decisionsAreTheRingsRecordsNewestFirstWithHowManyWereDecided() {
        RecentDecisions recent = new RecentDecisions(2);
        AdminApi api = new AdminApi(null, new StartupSummary().status(), new DecisionCounters(), recent, clock);
        assertThat(api.decisions(5)).isEqualTo("{\"decisions\":[],\"kept\":2,\"total\":0}");
        List<DecisionRecord> records = new java.util.ArrayList<>();
        for (String tool : List.of("one", "two", "three")) {
            DecisionRecord record = new DecisionRecord(clock.instant(), new ToolCall(Side.SERVER, null, tool, Map.of(), null, null, null),
                    new Decision(Effect.DENY, Effect.DENY, "/tools/" + tool, "no", 0), 1, false);
            records.add(record);
            recent.decided(record, null);
        }
        assertThat(api.decisions(5)).isEqualTo("{\"decisions\":[" + records.get(2).toJson() + "," + records.get(1).toJson()
                + "],\"kept\":2,\"total\":3}");
        assertThat(api.decisions(1)).startsWith("{\"decisions\":[" + records.get(2).toJson() + "]");
    }

    private AdminApi api(PolicyHolder holder, StartupSummary summary) {
        return new AdminApi(holder, summary.status(), new DecisionCounters(), new RecentDecisions(10), clock);
    }
}
