package dev.mcppolicy.engine.internal;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.EngineOptions;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.engine.ResultJudge;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.json.JsonPointers;
import dev.mcppolicy.policy.Action;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Mode;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.ResourceUris;
import dev.mcppolicy.policy.Scope;
import dev.mcppolicy.policy.ServerPolicy;
import dev.mcppolicy.policy.ToolRule;
import dev.mcppolicy.ratelimit.RateLimitStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * A policy compiled for deciding: rule lookup tables, conditions, schemas and every fixed decision
 * built once, so the allow path of a call allocates nothing. Follows SPEC §4 step by step.
 */
public final class CompiledPolicy implements PolicyEngine {
    private final Policy policy;
    private final RateLimitStore store;
    private final RuleSet top;
    private final Map<String, RuleSet> servers;
    /** SPEC §12: resource and prompt rules, top level and by server section; empty sets when the policy has none. */
    private final RuleSet topResources;
    private final RuleSet topPrompts;
    private final Map<String, RuleSet> serverResources;
    private final Map<String, RuleSet> serverPrompts;
    private final boolean policesResourcesOrPrompts;
    private final Decision resourceDefaultDenied;
    private final Decision promptDefaultDenied;
    private final Decision otherDefaultAllowed;
    private final boolean judgesResults;
    private final CompiledRule unlisted;
    private final Decision hidden;
    private final Decision defaultDenied;
    private final EngineOptions options;
    /** One limit per counter counted under many keys, for {@link #warmUp}. */
    private final List<Limit> keyedCounters;
    private final Clock clock;

    /** Compiles {@code policy}; calls no store method. */
    public CompiledPolicy(Policy policy, Clock clock, EngineOptions options) {
        this.policy = policy;
        this.clock = clock;
        this.options = options;
        this.store = options.store();
        Limits allTools = Limits.of(policy.allToolsLimits(), "/all_tools/limits");
        RuleContext context = new RuleContext(clock, store, options.storeFail(), options.maxValueLength(), policy.mode(), allTools);
        this.top = RuleSet.of(policy.tools(), policy.hide(), "/tools", context, Kind.TOOL);
        // all_tools limits count tool calls only
        RuleContext others = new RuleContext(clock, store, options.storeFail(), options.maxValueLength(), policy.mode(),
                Limits.of(List.of(), "/all_tools/limits"));
        this.topResources = RuleSet.of(policy.resources(), List.of(), "/resources", others, Kind.RESOURCE);
        this.topPrompts = RuleSet.of(policy.prompts(), List.of(), "/prompts", others, Kind.PROMPT);
        Map<String, RuleSet> sections = new HashMap<>();
        Map<String, RuleSet> resourceSections = new HashMap<>();
        Map<String, RuleSet> promptSections = new HashMap<>();
        boolean judges = top.judgesResults() || topResources.judgesResults() || topPrompts.judgesResults();
        for (Map.Entry<String, ServerPolicy> entry : policy.servers().entrySet()) {
            ServerPolicy section = entry.getValue();
            String at = "/servers/" + JsonPointers.escape(entry.getKey());
            RuleSet tools = RuleSet.of(section.tools(), section.hide(), at + "/tools", context, Kind.TOOL);
            RuleSet resources = RuleSet.of(section.resources(), List.of(), at + "/resources", others, Kind.RESOURCE);
            RuleSet prompts = RuleSet.of(section.prompts(), List.of(), at + "/prompts", others, Kind.PROMPT);
            sections.put(entry.getKey(), tools);
            resourceSections.put(entry.getKey(), resources);
            promptSections.put(entry.getKey(), prompts);
            judges |= tools.judgesResults() || resources.judgesResults() || prompts.judgesResults();
        }
        this.servers = sections;
        this.serverResources = resourceSections;
        this.serverPrompts = promptSections;
        this.judgesResults = judges;
        this.policesResourcesOrPrompts = policy.policesResourcesOrPrompts();
        this.resourceDefaultDenied = Decisions.deny(policy.mode(), Decision.DEFAULT_RULE,
                "no policy rule allows this resource (resource_default: deny)", 0);
        this.promptDefaultDenied = Decisions.deny(policy.mode(), Decision.DEFAULT_RULE,
                "no policy rule allows this prompt (prompt_default: deny)", 0);
        this.otherDefaultAllowed = Decisions.allow(Decision.DEFAULT_RULE);
        this.unlisted = CompiledRule.unlisted(context);
        this.hidden = Decisions.deny(policy.mode(), Decision.HIDDEN_RULE, "tool is hidden by policy", 0);
        this.defaultDenied = Decisions.deny(policy.mode(), Decision.DEFAULT_RULE,
                "no policy rule allows this tool (default: deny)", 0);
        this.keyedCounters = keyedCounters(policy);
    }

    private static List<Limit> keyedCounters(Policy policy) {
        Map<String, Limit> byCounter = new LinkedHashMap<>();
        List<List<Limit>> declared = new ArrayList<>();
        declared.add(policy.allToolsLimits());
        // loops, not lambdas: this runs on a cold JVM, where each lambda spun costs about a millisecond (issue 16)
        for (ToolRule rule : policy.tools().values()) {
            declared.add(rule.limits());
        }
        for (ToolRule rule : policy.resources().values()) {
            declared.add(rule.limits());
        }
        for (ToolRule rule : policy.prompts().values()) {
            declared.add(rule.limits());
        }
        for (ServerPolicy section : policy.servers().values()) {
            for (ToolRule rule : section.tools().values()) {
                declared.add(rule.limits());
            }
            for (ToolRule rule : section.resources().values()) {
                declared.add(rule.limits());
            }
            for (ToolRule rule : section.prompts().values()) {
                declared.add(rule.limits());
            }
        }
        for (List<Limit> limits : declared) {
            for (Limit limit : limits) {
                if (limit.scope() != Scope.GLOBAL) {
                    byCounter.putIfAbsent(limit.counter(), limit);
                }
            }
        }
        return List.copyOf(byCounter.values());
    }

    @Override
    public void warmUp(BiConsumer<? super ToolCall, ? super Decision> rehearsed) {
        prepareStore();
        try {
            Rehearsal.run(policy, options, rehearsed);
        } catch (Exception | LinkageError e) {
            // A rehearsal is only a head start: a rule it could not run pays for its first use on its first call.
        }
    }

    /** {@link RateLimitStore#prepare} for each keyed counter. */
    void prepareStore() {
        try {
            for (Limit limit : keyedCounters) {
                store.prepare(limit, clock.millis());
            }
        } catch (Exception | LinkageError e) {
            // Preparing is only a head start: an unready store sets itself up on first use, or answers
            // those calls by store_fail.
        }
    }

    @Override
    public Decision decide(ToolCall call) {
        if (call.kind() != Kind.TOOL) {
            return decideOther(call);
        }
        String tool = call.tool();
        RuleSet section = section(call.side(), call.server());
        if (hides(section, tool)) {
            return hidden;
        }
        CompiledRule rule = ruleFor(section, tool);
        if (rule != null) {
            return rule.decide(call);
        }
        return defaultAction(call.server(), section) == Action.DENY ? defaultDenied : unlisted.decide(call);
    }

    /** SPEC §12: a resource read or a prompt get, by the rules of its kind; no {@code hide}, no {@code all_tools} limits. */
    private Decision decideOther(ToolCall call) {
        String key = call.tool();
        if (call.kind() == Kind.RESOURCE) {
            key = ResourceUris.normalizeOrNull(key);
            if (key == null) {
                return Decisions.deny(policy.mode(), Decision.DEFAULT_RULE, "the resource URI cannot be normalized ("
                        + ResourceUris.problem(call.tool()) + ")", 0);
            }
        }
        if (!policesResourcesOrPrompts) {
            return otherDefaultAllowed;
        }
        CompiledRule rule = otherRule(call.kind(), call.side(), call.server(), key);
        if (rule != null) {
            return rule.decide(call);
        }
        if (otherDefault(call.kind(), call.side(), call.server()) == Action.DENY) {
            return call.kind() == Kind.RESOURCE ? resourceDefaultDenied : promptDefaultDenied;
        }
        return otherDefaultAllowed;
    }

    private CompiledRule otherRule(Kind kind, Side side, String server, String key) {
        Map<String, RuleSet> sections = kind == Kind.RESOURCE ? serverResources : serverPrompts;
        RuleSet section = side == Side.CLIENT && server != null && !sections.isEmpty() ? sections.get(server) : null;
        CompiledRule rule = section == null ? null : section.find(key);
        return rule != null ? rule : (kind == Kind.RESOURCE ? topResources : topPrompts).find(key);
    }

    private Action otherDefault(Kind kind, Side side, String server) {
        ServerPolicy section = side == Side.CLIENT && server != null ? policy.servers().get(server) : null;
        Action own = section == null ? null : kind == Kind.RESOURCE ? section.resourceDefault() : section.promptDefault();
        return own != null ? own : kind == Kind.RESOURCE ? policy.resourceDefault() : policy.promptDefault();
    }

    @Override
    public boolean isListed(Kind kind, Side side, String server, String name) {
        if (kind == Kind.TOOL) {
            return isListed(side, server, name);
        }
        if (!policesResourcesOrPrompts || policy.mode() == Mode.MONITOR) {
            return true;
        }
        String key = name;
        if (kind == Kind.RESOURCE) {
            key = ResourceUris.normalizeOrNull(name);
            if (key == null) {
                return false;
            }
        }
        CompiledRule rule = otherRule(kind, side, server, key);
        return rule == null ? otherDefault(kind, side, server) == Action.ALLOW : !rule.deniesOutright();
    }

    @Override
    public boolean judgesResults() {
        return judgesResults;
    }

    @Override
    public ResultJudge resultJudge(ToolCall call) {
        if (!judgesResults) {
            return null;
        }
        CompiledRule rule;
        if (call.kind() == Kind.TOOL) {
            RuleSet section = section(call.side(), call.server());
            rule = hides(section, call.tool()) ? null : ruleFor(section, call.tool());
        } else {
            String key = call.kind() == Kind.RESOURCE ? ResourceUris.normalizeOrNull(call.tool()) : call.tool();
            rule = key == null ? null : otherRule(call.kind(), call.side(), call.server(), key);
        }
        return rule == null ? null : rule.result();
    }

    @Override
    public boolean isListed(Side side, String server, String tool) {
        if (policy.mode() == Mode.MONITOR) {
            return true;
        }
        RuleSet section = section(side, server);
        if (hides(section, tool)) {
            return false;
        }
        CompiledRule rule = ruleFor(section, tool);
        return rule == null ? defaultAction(server, section) == Action.ALLOW : !rule.deniesOutright();
    }

    @Override
    public boolean needsInputSchema(Side side, String server, String tool) {
        RuleSet section = section(side, server);
        if (hides(section, tool)) {
            return false;
        }
        CompiledRule rule = ruleFor(section, tool);
        return rule != null && rule.validatesInputSchema();
    }

    @Override
    public String serverSection(String name, String address) {
        return address != null && servers.containsKey(address) ? address : name;
    }

    /** SPEC §4 step 1: hidden by the policy's {@code hide}, or by the server section's. */
    private boolean hides(RuleSet section, String tool) {
        return top.hides(tool) || section != null && section.hides(tool);
    }

    /** SPEC §4 step 2: the server section's rule, then the top level's; {@code null} when none names the tool. */
    private CompiledRule ruleFor(RuleSet section, String tool) {
        CompiledRule rule = section == null ? null : section.find(tool);
        return rule != null ? rule : top.find(tool);
    }

    private RuleSet section(Side side, String server) {
        return side == Side.CLIENT && server != null && !servers.isEmpty() ? servers.get(server) : null;
    }

    private Action defaultAction(String server, RuleSet section) {
        if (section != null) {
            Action own = policy.servers().get(server).defaultAction();
            if (own != null) {
                return own;
            }
        }
        return policy.defaultAction();
    }

    @Override
    public Policy policy() {
        return policy;
    }

    @Override
    public RateLimitStore store() {
        return store;
    }

    /** What every rule of one policy shares. */
    record RuleContext(Clock clock, RateLimitStore store, EngineOptions.StoreFail storeFail, int maxValueLength,
                       Mode mode, Limits allTools) {
    }

    /** The limits that apply to a rule, with the pointer of each for the decision. */
    record Limits(Limit[] limits, String[] pointers) {
        static Limits of(List<Limit> limits, String at) {
            Limit[] array = limits.toArray(new Limit[0]);
            String[] pointers = new String[array.length];
            for (int i = 0; i < array.length; i++) {
                pointers[i] = at + "/" + i;
            }
            return new Limits(array, pointers);
        }
    }
}
