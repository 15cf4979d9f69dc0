package dev.mcppolicy.agent.metrics;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
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
    /**
     * By tool, one table per side keyed by the call's own tool name: no {@code "server echo"} string is built per
     * call (that concatenation, and hashing the new string, was a third of the hook's time on an allowed call,
     * issue 16); {@link #byTool()} builds the names when asked. Tools past the cap count in {@link #otherTools}.
     */
    private final ConcurrentHashMap<String, LongAdder> serverTools = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LongAdder> clientTools = new ConcurrentHashMap<>();
    private final LongAdder otherTools = new LongAdder();
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
        countTool(call.side() == Side.SERVER ? serverTools : clientTools, call.tool());
        count(byRule, decision.rule());
    }

    private void countTool(ConcurrentHashMap<String, LongAdder> table, String tool) {
        LongAdder adder = table.get(tool);
        if (adder == null) {
            adder = serverTools.size() + clientTools.size() < MOST_NAMES ? table.computeIfAbsent(tool, k -> new LongAdder()) : otherTools;
        }
        adder.increment();
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
        Map<String, Long> copy = new TreeMap<>();
        serverTools.forEach((name, adder) -> copy.merge(Side.SERVER.word() + " " + name, adder.sum(), Long::sum));
        clientTools.forEach((name, adder) -> copy.merge(Side.CLIENT.word() + " " + name, adder.sum(), Long::sum));
        long other = otherTools.sum();
        if (other > 0) {
            copy.merge(OTHER, other, Long::sum);
        }
        return copy;
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
