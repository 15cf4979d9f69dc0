package dev.mcppolicy.agent.metrics;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.ToolCall;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts decisions for JMX ({@link DecisionsMXBean}): by outcome (allowed, denied, allowed in monitor
 * mode that would have been denied), by tool and by rule. Tool and rule names come from callers and
 * policies, so each table holds at most {@value #MOST_NAMES} names; the rest count under
 * {@value #OTHER}. A few adder increments per decision, no lock.
 */
public final class DecisionCounters {
    static final int MOST_NAMES = 500;
    static final String OTHER = "(other)";

    private final LongAdder allowed = new LongAdder();
    private final LongAdder denied = new LongAdder();
    private final LongAdder wouldDeny = new LongAdder();
    private final LongAdder held = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> byTool = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongAdder> byRule = new ConcurrentHashMap<>();

    /** Counts one decision; called by {@code DecisionLog} for every call, before any listener. */
    public void count(ToolCall call, Decision decision) {
        if (decision.effect() == Effect.ALLOW) {
            allowed.increment();
            if (decision.wouldBe() != null && decision.wouldBe() != Effect.ALLOW) {
                wouldDeny.increment();
            }
        } else if (decision.effect() == Effect.REQUIRE_APPROVAL) {
            held.increment(); // its outcome (allowed or denied) is counted when it comes
        } else {
            denied.increment();
        }
        count(byTool, (call.side() == null ? "" : call.side().word() + " ") + call.tool());
        count(byRule, decision.rule());
    }

    private static void count(ConcurrentHashMap<String, LongAdder> table, String name) {
        String key = name == null ? OTHER : name;
        LongAdder adder = table.get(key);
        if (adder == null) {
            adder = table.size() < MOST_NAMES ? table.computeIfAbsent(key, k -> new LongAdder())
                    : table.computeIfAbsent(OTHER, k -> new LongAdder());
        }
        adder.increment();
    }

    public long allowed() {
        return allowed.sum();
    }

    public long denied() {
        return denied.sum();
    }

    public long wouldDeny() {
        return wouldDeny.sum();
    }

    /** Calls held for approval (each is counted again, allowed or denied, when it is decided). */
    public long held() {
        return held.sum();
    }

    /** Calls by side and tool ({@code "server echo"}), sorted. */
    public Map<String, Long> byTool() {
        return snapshot(byTool);
    }

    /** Calls by the rule that decided them (a JSON Pointer, {@code (default)}, ...), sorted. */
    public Map<String, Long> byRule() {
        return snapshot(byRule);
    }

    private static Map<String, Long> snapshot(ConcurrentHashMap<String, LongAdder> table) {
        Map<String, Long> copy = new TreeMap<>();
        table.forEach((name, adder) -> copy.put(name, adder.sum()));
        return copy;
    }
}
