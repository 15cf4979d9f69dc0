package dev.mcppolicy.agent.admin;

import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.config.AgentConfig.Setting;
import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.agent.config.ConfigKey;
import dev.mcppolicy.agent.log.RecentDecisions;
import dev.mcppolicy.agent.pins.ToolPins;
import dev.mcppolicy.agent.metrics.DecisionCounters;
import dev.mcppolicy.agent.status.AgentStatus;
import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.policy.Durations;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyParser;
import dev.mcppolicy.policy.ServerPolicy;
import dev.mcppolicy.policy.ToolRule;
import dev.mcppolicy.ratelimit.CounterView;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON the admin endpoint answers, read from the agent's state when asked: {@code /api/status},
 * {@code /api/decisions}, {@code /api/limits}, {@code /api/policy}, {@code /api/pins}. Objects' keys are sorted
 * ({@link CanonicalJson}). No credential is ever in it: {@code admin_token} shows as {@code (set)}, and
 * counter keys are the engine's (a {@code client} key from an {@code Authorization} header is its hash).
 */
final class AdminApi {
    /** The most keys of one session or client counter {@code /api/limits} lists, the most used first. */
    static final int MOST_KEYS_PER_COUNTER = 50;
    static final int DEFAULT_DECISIONS = 50;

    private final PolicyHolder holder;
    private final AgentStatus status;
    private final DecisionCounters counters;
    private final RecentDecisions recent;
    private final Clock clock;

    AdminApi(PolicyHolder holder, AgentStatus status, DecisionCounters counters, RecentDecisions recent, Clock clock) {
        this.holder = holder;
        this.status = status;
        this.counters = counters;
        this.recent = recent;
        this.clock = clock;
    }

    String status() {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> agent = new LinkedHashMap<>();
        agent.put("version", status.version());
        agent.put("java", status.javaVersion());
        agent.put("late_attach", status.lateAttach());
        agent.put("pid", ProcessHandle.current().pid());
        out.put("agent", agent);
        out.put("policy", policyStatus(status.policy()));

        Map<String, Object> reload = new LinkedHashMap<>();
        AgentStatus.ReloadResult last = status.lastReload();
        if (last == null) {
            reload.put("last", null);
        } else {
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("outcome", word(last.outcome()));
            result.put("at", last.at().toString());
            result.put("from", last.from());
            result.put("to", last.to());
            result.put("errors", last.errors());
            reload.put("last", result);
        }
        reload.put("applied", status.reloadsApplied());
        reload.put("rejected", status.reloadsRejected());
        out.put("reload", reload);

        Map<String, Object> decisions = new LinkedHashMap<>();
        decisions.put("allowed", counters.allowed());
        decisions.put("denied", counters.denied());
        decisions.put("would_deny", counters.wouldDeny());
        decisions.put("held", counters.held());
        decisions.put("recorded", recent.total());
        decisions.put("kept", recent.capacity());
        out.put("decisions", decisions);

        Map<String, Object> hooks = new LinkedHashMap<>();
        hooks.put("state", word(status.hooks().state()));
        hooks.put("error", status.hooks().error());
        out.put("hooks", hooks);
        List<Object> instrumented = new ArrayList<>();
        for (AgentStatus.Instrumented type : status.instrumented()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("type", type.type());
            entry.put("sdk", type.sdk());
            entry.put("hooks", type.hooks());
            entry.put("missing", type.missing());
            instrumented.add(entry);
        }
        out.put("instrumented", instrumented);
        Map<String, Object> canary = new LinkedHashMap<>();
        canary.put("outcome", word(status.canary().outcome()));
        canary.put("detail", status.canary().detail());
        out.put("canary", canary);
        AgentStatus.Errors errors = status.errors();
        Map<String, Object> errorCounts = new LinkedHashMap<>();
        errorCounts.put("advice", errors.adviceErrors());
        errorCounts.put("advice_by_kind", errors.adviceErrorsByKind());
        errorCounts.put("listeners", errors.listenerErrors());
        out.put("errors", errorCounts);
        out.put("decision_log", status.decisionLog());

        List<Object> configuration = new ArrayList<>();
        for (Setting setting : status.configuration()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("key", setting.key().key());
            ConfigKey.Type type = setting.key().type();
            entry.put("value", type == ConfigKey.Type.SECRET ? (setting.value() == null ? "random" : "(set)")
                    : type == ConfigKey.Type.PASSWORD ? (setting.value() == null ? null : "(set)")
                    : type == ConfigKey.Type.STORE && setting.value() != null ? AgentConfig.maskedStore(setting.value())
                    : setting.value());
            entry.put("source", setting.source());
            configuration.add(entry);
        }
        out.put("configuration", configuration);
        return CanonicalJson.write(out);
    }

    private static Map<String, Object> policyStatus(AgentStatus.PolicyStatus policy) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("state", word(policy.state()));
        out.put("path", policy.path() == null ? null : policy.path().toString());
        out.put("sha256", policy.sha256());
        out.put("mode", policy.mode());
        out.put("default", policy.defaultAction());
        out.put("warnings", policy.warnings());
        out.put("errors", policy.errors());
        return out;
    }

    /** {@code {"total":N,"kept":500,"decisions":[...]}}: each decision its audit record, newest first. */
    String decisions(int limit) {
        StringBuilder out = new StringBuilder(256).append("{\"decisions\":[");
        String separator = "";
        for (String json : recent.newest(limit)) {
            out.append(separator).append(json);
            separator = ",";
        }
        return out.append("],\"kept\":").append(recent.capacity()).append(",\"total\":").append(recent.total()).append('}').toString();
    }

    /** Every counter of the policy in force: scope, key, used, max, window, retry-after. */
    String limits() {
        PolicySnapshot snapshot = holder.current();
        List<Object> out = new ArrayList<>();
        if (snapshot.engine() != null) {
            List<CounterView> views = snapshot.engine().store().counters(limitsOf(snapshot.engine().policy()), MOST_KEYS_PER_COUNTER,
                    clock.millis());
            for (CounterView view : views) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("counter", view.counter());
                entry.put("scope", view.scope().word());
                entry.put("key", shownKey(view.key()));
                entry.put("used", view.used());
                entry.put("max", view.max());
                entry.put("window", Durations.format(view.window()));
                entry.put("window_ms", view.window().toMillis());
                entry.put("algorithm", view.algorithm().word());
                entry.put("retry_after_ms", view.retryAfterMillis());
                out.add(entry);
            }
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("counters", out);
        answer.put("most_keys_per_counter", MOST_KEYS_PER_COUNTER);
        return CanonicalJson.write(answer);
    }

    /** A counter key as shown: the engine's hash of a long id without its NUL marker, {@code (none)} for calls without an id. */
    private static String shownKey(String key) {
        if (key == null) {
            return null;
        }
        if (key.isEmpty()) {
            return "(none)";
        }
        return key.charAt(0) == '\u0000' ? key.substring(1) : key;
    }

    /** Each counter of {@code policy} once, in policy order. */
    static List<Limit> limitsOf(Policy policy) {
        Map<String, Limit> byCounter = new LinkedHashMap<>();
        for (Limit limit : policy.allToolsLimits()) {
            byCounter.putIfAbsent(limit.counter(), limit);
        }
        for (ToolRule rule : policy.tools().values()) {
            for (Limit limit : rule.limits()) {
                byCounter.putIfAbsent(limit.counter(), limit);
            }
        }
        for (ServerPolicy server : policy.servers().values()) {
            for (ToolRule rule : server.tools().values()) {
                for (Limit limit : rule.limits()) {
                    byCounter.putIfAbsent(limit.counter(), limit);
                }
            }
        }
        return new ArrayList<>(byCounter.values());
    }

    /** The policy in force as loaded: its file, hash and text; or why there is none. */
    String policy() {
        PolicySnapshot snapshot = holder.current();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("path", snapshot.path() == null ? null : snapshot.path().toString());
        if (snapshot.engine() == null) {
            out.put("state", "unavailable");
            out.put("errors", snapshot.unavailableDetails());
            return CanonicalJson.write(out);
        }
        out.put("state", "loaded");
        out.put("sha256", snapshot.engine().policy().sha256());
        PolicyParser.Format format = snapshot.path() == null ? null : PolicyParser.formatOf(snapshot.path().toString());
        out.put("format", format == null ? null : format.name().toLowerCase(Locale.ROOT));
        out.put("source", snapshot.source());
        return CanonicalJson.write(out);
    }

    /** {@code /api/pins}: pinned tool definitions (SPEC §14), by server, with each tool's state. */
    String pins() {
        return CanonicalJson.write(ToolPins.shared().view(holder.current()));
    }

    private static String word(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
