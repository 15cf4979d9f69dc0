package dev.mcppolicy.engine.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mcppolicy.condition.ArgumentCondition;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.EngineOptions;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.json.JsonValues;
import dev.mcppolicy.policy.Action;
import dev.mcppolicy.policy.Condition;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Mode;
import dev.mcppolicy.policy.Scope;
import dev.mcppolicy.policy.ToolRule;
import dev.mcppolicy.ratelimit.Admission;
import dev.mcppolicy.ratelimit.RateLimitStore;
import dev.mcppolicy.schema.JsonSchema;
import dev.mcppolicy.text.DisplayText;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One rule, ready to decide: SPEC §4 steps 3 to 8 for the tools it covers. */
final class CompiledRule {
    /** The most chars of a store's reason for being unavailable that a decision repeats. */
    private static final int STORE_REASON_CAP = 200;

    private final Action action;
    private final Mode mode;
    private final Decision deniedOutright;
    private final JsonSchema schema;
    private final boolean validateInputSchema;
    private final String argumentsPointer;
    private final ArgumentCondition[] require;
    private final Decision[] requireFailed;
    private final String[] requireReasons;
    private final ArgumentCondition[] denyIf;
    private final Decision[] denyIfMatched;
    private final String[] denyIfReasons;
    private final Limit[] limits;
    private final String[] limitPointers;
    private final String[] limitReasons;
    /** The keys of {@link #limits} when they are all {@code global} (the same for every call), else {@code null}. */
    private final String[] globalKeys;
    /** The first limit a call counts against, in policy order: the rule of a store-unavailable decision. */
    private final String firstLimitPointer;
    private final Clock clock;
    private final RateLimitStore store;
    private final EngineOptions.StoreFail storeFail;
    private final Decision passed;
    private final Cache<Map<String, ?>, Object> inputSchemas;
    /** The rule's {@code result}, or {@code null}. */
    private final CompiledResultRule result;

    private CompiledRule(ToolRule rule, String pointer, CompiledPolicy.RuleContext context, Kind kind) {
        this.action = rule.action();
        this.mode = rule.mode() != null ? rule.mode() : context.mode();
        this.clock = context.clock();
        this.store = context.store();
        this.storeFail = context.storeFail();
        String reason = rule.reason();
        this.deniedOutright = Decisions.deny(mode, pointer, reason != null ? reason : kind.word() + " is denied by policy", 0);
        this.schema = rule.argumentsSchema();
        this.validateInputSchema = rule.validateInputSchema();
        this.argumentsPointer = pointer + "/arguments";
        this.inputSchemas = validateInputSchema ? Caffeine.newBuilder().maximumSize(256).executor(Runnable::run).build() : null;

        int max = context.maxValueLength();
        List<Condition> required = rule.require();
        this.require = new ArgumentCondition[required.size()];
        this.requireFailed = new Decision[required.size()];
        this.requireReasons = new String[required.size()];
        for (int i = 0; i < require.length; i++) {
            require[i] = new ArgumentCondition(required.get(i), ArgumentCondition.Role.REQUIRE, max);
            requireReasons[i] = reason != null ? reason : "required condition not met: " + require[i].describe();
            requireFailed[i] = Decisions.deny(mode, pointer + "/require/" + i, requireReasons[i], 0, require[i].displayPath());
        }
        List<Condition> denied = rule.denyIf();
        this.denyIf = new ArgumentCondition[denied.size()];
        this.denyIfMatched = new Decision[denied.size()];
        this.denyIfReasons = new String[denied.size()];
        for (int i = 0; i < denyIf.length; i++) {
            denyIf[i] = new ArgumentCondition(denied.get(i), ArgumentCondition.Role.DENY_IF, max);
            denyIfReasons[i] = reason != null ? reason : "denied by condition: " + denyIf[i].describe();
            denyIfMatched[i] = Decisions.deny(mode, pointer + "/deny_if/" + i, denyIfReasons[i], 0, denyIf[i].displayPath());
        }

        Map<String, Integer> byCounter = new LinkedHashMap<>();
        List<Limit> merged = new ArrayList<>();
        List<String> pointers = new ArrayList<>();
        addLimits(context.allTools().limits(), context.allTools().pointers(), byCounter, merged, pointers);
        List<Limit> own = rule.limits();
        String[] ownPointers = new String[own.size()];
        for (int i = 0; i < ownPointers.length; i++) {
            ownPointers[i] = pointer + "/limits/" + i;
        }
        addLimits(own.toArray(new Limit[0]), ownPointers, byCounter, merged, pointers);
        Integer[] order = new Integer[merged.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        // by counter name, stable; an insertion sort of a handful, as no comparator lambda is spun on a cold JVM
        for (int i = 1; i < order.length; i++) {
            Integer moving = order[i];
            String counter = merged.get(moving).counter();
            int j = i - 1;
            while (j >= 0 && merged.get(order[j]).counter().compareTo(counter) > 0) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = moving;
        }
        this.limits = new Limit[order.length];
        this.limitPointers = new String[order.length];
        this.limitReasons = new String[order.length];
        boolean allGlobal = true;
        for (int i = 0; i < order.length; i++) {
            limits[i] = merged.get(order[i]);
            limitPointers[i] = pointers.get(order[i]);
            limitReasons[i] = "rate limit exceeded: counter '" + limits[i].counter() + "' allows " + limits[i].describe();
            allGlobal &= limits[i].scope() == Scope.GLOBAL;
        }
        this.globalKeys = allGlobal ? new String[limits.length] : null;
        if (allGlobal) {
            Arrays.fill(globalKeys, RateLimitStore.GLOBAL_KEY);
        }
        this.firstLimitPointer = pointers.isEmpty() ? null : pointers.get(0);
        // In monitor mode a call that needs approval is let through and logged as what it would need.
        this.passed = action == Action.REQUIRE_APPROVAL
                ? new Decision(mode == Mode.MONITOR ? Effect.ALLOW : Effect.REQUIRE_APPROVAL, Effect.REQUIRE_APPROVAL, pointer,
                        "approval required", 0)
                : Decisions.allow(pointer);
        this.result = rule.result() == null ? null : new CompiledResultRule(rule.result(), pointer, reason, mode);
    }

    static CompiledRule of(ToolRule rule, String pointer, CompiledPolicy.RuleContext context, Kind kind) {
        return new CompiledRule(rule, pointer, context, kind);
    }

    /** The rule's result judge, or {@code null} when it has no {@code result}. */
    CompiledResultRule result() {
        return result;
    }

    /** The rule applied to a tool no rule names under {@code default: allow}: the {@code all_tools} limits only. */
    static CompiledRule unlisted(CompiledPolicy.RuleContext context) {
        return new CompiledRule(ToolRule.allow("(default)"), Decision.DEFAULT_RULE, context, Kind.TOOL);
    }

    private static void addLimits(Limit[] limits, String[] pointers, Map<String, Integer> byCounter,
                                  List<Limit> merged, List<String> mergedPointers) {
        for (int i = 0; i < limits.length; i++) {
            if (byCounter.putIfAbsent(limits[i].counter(), merged.size()) == null) {
                merged.add(limits[i]);
                mergedPointers.add(pointers[i]);
            }
        }
    }

    /** A condition stopped the call at a leaf, or because a value cannot be checked: the reason says which. */
    private Decision stopped(Decision atPath, String reason, ArgumentCondition.Stop stop) {
        return Decisions.deny(mode, atPath.rule(), reason + " (" + stop.detail() + ")", 0, stop.argument());
    }

    boolean validatesInputSchema() {
        return validateInputSchema && action != Action.DENY;
    }

    boolean deniesOutright() {
        return action == Action.DENY && mode == Mode.ENFORCE;
    }

    Decision decide(ToolCall call) {
        if (action == Action.DENY) {
            return deniedOutright;
        }
        Map<String, ?> arguments = call.arguments();
        if (schema != null || validateInputSchema) {
            Decision invalid = validate(call, arguments);
            if (invalid != null) {
                return invalid;
            }
        }
        // what caller.* conditions read (issue 32): built at the first one, never for a rule that has none
        Map<String, ?> caller = null;
        for (int i = 0; i < require.length; i++) {
            ArgumentCondition condition = require[i];
            ArgumentCondition.Stop stop = condition.check(!condition.onCaller() ? arguments
                    : caller != null ? caller : (caller = call.caller().view()));
            if (stop != null) {
                return stop.detail() == null ? requireFailed[i] : stopped(requireFailed[i], requireReasons[i], stop);
            }
        }
        for (int i = 0; i < denyIf.length; i++) {
            ArgumentCondition condition = denyIf[i];
            ArgumentCondition.Stop stop = condition.check(!condition.onCaller() ? arguments
                    : caller != null ? caller : (caller = call.caller().view()));
            if (stop != null) {
                return stop.detail() == null ? denyIfMatched[i] : stopped(denyIfMatched[i], denyIfReasons[i], stop);
            }
        }
        if (limits.length > 0) {
            // SPEC §4 step 6, written out here rather than in a method of its own: C2 compiled such a
            // method on its own first and then called it instead of inlining the store (+5 ns, allowFixed).
            String key = limits.length == 1 ? CounterKeys.of(limits[0].scope(), call) : null;
            String[] keys = key != null ? null : globalKeys != null ? globalKeys : CounterKeys.of(limits, call);
            long now = clock.millis();
            Admission admission;
            try {
                admission = key != null ? store.tryAcquire(limits[0], key, now) : store.tryAcquire(limits, keys, now);
            } catch (Exception | LinkageError e) {
                admission = Admission.unavailable(describe(e));
            }
            if (admission == null || !admission.admitted()) {
                return denial(admission);
            }
        }
        return passed;
    }

    /** A call the limits did not admit: refused by one of them, or the store could not answer. */
    private Decision denial(Admission admission) {
        if (admission == null) {
            return storeUnavailable("the store gave no answer");
        }
        int refused = admission.refusedBy();
        if (admission.isUnavailable() || refused >= limits.length) {
            return storeUnavailable(admission.isUnavailable() ? admission.unavailableReason()
                    : "the store refused limit " + refused + " of " + limits.length);
        }
        long seconds = (admission.retryAfterMillis() + 999) / 1000;
        return Decisions.deny(mode, limitPointers[refused], limitReasons[refused], seconds);
    }

    /** The store could not say whether the limits have room: {@code store_fail} decides (SPEC §10). */
    private Decision storeUnavailable(String why) {
        StringBuilder reason = new StringBuilder("rate limit store unavailable: ");
        DisplayText.appendQuoted(why, '"', STORE_REASON_CAP, reason);
        if (storeFail == EngineOptions.StoreFail.ALLOW) {
            reason.append("; let through uncounted (store_fail=allow)");
            return new Decision(passed.effect(), Effect.DENY, firstLimitPointer, reason.toString(), 0);
        }
        return Decisions.deny(mode, firstLimitPointer, reason.toString(), 0);
    }

    private static String describe(Throwable failure) {
        String type = failure.getClass().getSimpleName();
        if (type.isEmpty()) {
            type = failure.getClass().getName();
        }
        return failure.getMessage() == null ? type : type + ": " + failure.getMessage();
    }

    private Decision validate(ToolCall call, Map<String, ?> arguments) {
        JsonSchema effective = schema;
        if (validateInputSchema) {
            Map<String, ?> advertised = call.inputSchema();
            if (advertised == null) {
                return Decisions.deny(mode, argumentsPointer, "the tool's input schema is unknown, so its arguments cannot be validated", 0);
            }
            if (JsonValues.nestsDeeperThan(advertised, JsonSchema.MAX_DEPTH)) {
                // Before the cache: hashing and comparing a map recurse as deep as it nests.
                return Decisions.deny(mode, argumentsPointer, "the tool's input schema cannot be used: it nests more than "
                        + JsonSchema.MAX_DEPTH + " levels deep", 0);
            }
            Object compiled = inputSchemas.get(advertised, CompiledRule::compileInputSchema);
            if (compiled instanceof String) {
                return Decisions.deny(mode, argumentsPointer, "the tool's input schema cannot be used: " + compiled, 0);
            }
            effective = (JsonSchema) compiled;
        }
        String violation = effective.firstViolation(arguments);
        return violation == null ? null : Decisions.deny(mode, argumentsPointer, "arguments do not match the schema: " + violation, 0);
    }

    private static Object compileInputSchema(Map<String, ?> advertised) {
        try {
            return JsonSchema.compileLenient(advertised);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }
}
