package dev.mcppolicy.bench;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.PolicyParser;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one {@link PolicyEngine#decide} (issue 2, section 8), on one engine shared by all
 * benchmark threads, with {@link Clock#systemUTC()} as a real agent would use it.
 *
 * <p>Every {@link ToolCall} is built once in {@link #setUp}: the benchmarks measure the decision, not
 * the agent's construction of the call (which happens once per MCP request anyway). Arguments are
 * {@link LinkedHashMap}s with {@link Integer} numbers, as Jackson gives them.
 *
 * <p>The limits can never run out during a run: {@code max} is 2,000,000,000 per second, about 50 times
 * what two cores can do. {@code sliding} is left out on purpose: it keeps one timestamp per admitted
 * call in the window, so a never-exhausted sliding limit would grow to hundreds of MB in a benchmark.
 * {@link #checkStillAllowed} fails the run if an allow benchmark ever stopped being allowed.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class DecisionBenchmark {
    static final String POLICY = """
            {
              "version": "1",
              "default": "deny",
              "tools": {
                "read_file": {
                  "limits": [ { "counter": "read_file", "window": "second", "max": 2000000000,
                                "scope": "global", "algorithm": "fixed" } ]
                },
                "list_files": {
                  "limits": [ { "counter": "list_files", "window": "second", "max": 2000000000,
                                "scope": "global", "algorithm": "token_bucket" } ]
                },
                "search_files": {
                  "limits": [ { "counter": "search_files", "window": "second", "max": 2000000000,
                                "scope": "global", "algorithm": "sliding" } ]
                },
                "stat_file": {
                  "limits": [ { "counter": "stat_file", "window": "second", "max": 2000000000,
                                "scope": "client", "algorithm": "fixed" } ]
                },
                "delete_file": { "action": "deny", "reason": "destructive tools are disabled" },
                "query": {
                  "require": [
                    { "path": "mode",   "op": "eq",         "value": "read" },
                    { "path": "format", "op": "in",         "value": ["json", "csv", "text"] },
                    { "path": "limit",  "op": "lt",         "value": 1000 },
                    { "path": "table",  "op": "max_length", "value": 64 }
                  ],
                  "limits": [ { "counter": "query", "window": "second", "max": 2000000000,
                                "scope": "global", "algorithm": "fixed" } ]
                },
                "transfer": { "deny_if": [ { "path": "amount", "op": "gt", "value": 1000 } ] },
                "exec": { "deny_if": [ { "path": "command", "op": "contains", "value": "rm -rf" } ] },
                "run_command": {
                  "require": [ { "path": "command", "op": "regex", "value": "^(ls|cat|echo|git status)( .*)?$" } ],
                  "limits": [ { "counter": "run_command", "window": "second", "max": 2000000000,
                                "scope": "global", "algorithm": "fixed" } ]
                }
              }
            }
            """;

    /** 100 characters that the regex accepts: the whole value is scanned. */
    static final String COMMAND_100 =
            "cat /srv/sandbox/projects/mcp-policy-agent/policy-runtime/src/main/java/dev/mcppolicy/EngineRef.java";

    PolicyEngine engine;
    /** The same policy on a clock that never moves: what the allow path costs without reading the time. */
    PolicyEngine frozenEngine;
    ToolCall allowFixed;
    ToolCall allowTokenBucket;
    ToolCall allowSliding;
    ToolCall allowFixedPerClient;
    ToolCall denyDefault;
    ToolCall denyRule;
    ToolCall conditions4;
    ToolCall regex100;
    ToolCall amountNumber;
    ToolCall amountString;
    ToolCall amountArray;
    ToolCall commandString;
    ToolCall commandArgv;

    @Setup
    public void setUp() throws PolicyException {
        if (COMMAND_100.length() != 100) {
            throw new IllegalStateException("COMMAND_100 has " + COMMAND_100.length() + " characters");
        }
        Policy policy = PolicyParser.parse(POLICY, PolicyParser.Format.JSON, "bench");
        engine = PolicyEngine.of(policy, Clock.systemUTC());
        frozenEngine = PolicyEngine.of(policy, Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC));

        Map<String, Object> path = new LinkedHashMap<>();
        path.put("path", "/srv/sandbox/README.md");
        allowFixed = call("read_file", path);
        allowTokenBucket = call("list_files", path);
        allowSliding = call("search_files", path);
        allowFixedPerClient = call("stat_file", path);
        denyDefault = call("format_disk", path);
        denyRule = call("delete_file", path);

        Map<String, Object> query = new LinkedHashMap<>();
        query.put("mode", "read");
        query.put("format", "csv");
        query.put("limit", 100);
        query.put("table", "customers");
        conditions4 = call("query", query);

        Map<String, Object> command = new LinkedHashMap<>();
        command.put("command", COMMAND_100);
        regex100 = call("run_command", command);

        amountNumber = call("transfer", Map.of("amount", 500));
        amountString = call("transfer", Map.of("amount", "500"));
        amountArray = call("transfer", Map.of("amount", List.of(100, 200, 300)));
        commandString = call("exec", Map.of("command", "ls -la /srv/sandbox"));
        commandArgv = call("exec", Map.of("command", List.of("ls", "-la", "/srv/sandbox")));
        for (ToolCall call : List.of(amountNumber, amountString, amountArray)) {
            expect(call, Effect.ALLOW, "/tools/transfer");
        }
        expect(commandString, Effect.ALLOW, "/tools/exec");
        expect(commandArgv, Effect.ALLOW, "/tools/exec");

        expect(allowFixed, Effect.ALLOW, "/tools/read_file");
        expect(allowTokenBucket, Effect.ALLOW, "/tools/list_files");
        expect(allowSliding, Effect.ALLOW, "/tools/search_files");
        expect(allowFixedPerClient, Effect.ALLOW, "/tools/stat_file");
        if (frozenEngine.decide(allowFixed).effect() != Effect.ALLOW) {
            throw new IllegalStateException("frozen clock: read_file not allowed");
        }
        expect(denyDefault, Effect.DENY, Decision.DEFAULT_RULE);
        expect(denyRule, Effect.DENY, "/tools/delete_file");
        expect(conditions4, Effect.ALLOW, "/tools/query");
        expect(regex100, Effect.ALLOW, "/tools/run_command");
    }

    /** A limit that ran out would turn an allow benchmark into a (cheaper) deny benchmark: fail instead. */
    @TearDown(Level.Iteration)
    public void checkStillAllowed() {
        for (ToolCall call : List.of(allowFixed, allowTokenBucket, allowSliding, allowFixedPerClient, conditions4, regex100)) {
            expect(call, Effect.ALLOW, null);
        }
        if (frozenEngine.decide(allowFixed).effect() != Effect.ALLOW) {
            throw new IllegalStateException("frozen clock: read_file no longer allowed");
        }
    }

    private static ToolCall call(String tool, Map<String, Object> arguments) {
        return new ToolCall(Side.SERVER, null, tool, arguments, "session-1", "client-1", null);
    }

    private void expect(ToolCall call, Effect effect, String rule) {
        Decision decision = engine.decide(call);
        if (decision.effect() != effect || rule != null && !rule.equals(decision.rule())) {
            throw new IllegalStateException(call.tool() + ": expected " + effect + " by " + rule + ", got " + decision);
        }
    }

    /** Tool lookup + default-deny policy + one {@code fixed} limit that never runs out. */
    @Benchmark
    public Decision allowFixed() {
        return engine.decide(allowFixed);
    }

    /**
     * Diagnostic, not a goal: {@link #allowFixed} on {@link Clock#fixed}, so the engine does not read the
     * system time (the store never does). The difference to {@link #allowFixed} is the cost of the
     * clock read on this machine (compare {@link ClockBaseline}). One fork makes far fewer
     * than the 2,000,000,000 calls the never-rolling window allows.
     */
    @Benchmark
    public Decision allowFixed_frozenClock() {
        return frozenEngine.decide(allowFixed);
    }

    /** The same with a {@code token_bucket} limit. */
    @Benchmark
    public Decision allowTokenBucket() {
        return engine.decide(allowTokenBucket);
    }

    /**
     * The same with an exact {@code sliding} limit. Calls of one millisecond share one entry of the
     * log, so at this rate it holds at most a second's worth of milliseconds.
     */
    @Benchmark
    public Decision allowSliding() {
        return engine.decide(allowSliding);
    }

    /** A {@code fixed} limit with {@code scope: client}: the state is looked up per client in the bounded key cache. */
    @Benchmark
    public Decision allowFixedPerClient() {
        return engine.decide(allowFixedPerClient);
    }

    /** Two threads taking from one {@code fixed} limiter (one lock, one counter). */
    @Benchmark
    @Threads(2)
    public Decision allowFixed_2threads() {
        return engine.decide(allowFixed);
    }

    /** Two threads taking from one {@code token_bucket} limiter. */
    @Benchmark
    @Threads(2)
    public Decision allowTokenBucket_2threads() {
        return engine.decide(allowTokenBucket);
    }

    /** A tool no rule names, under {@code default: deny}. */
    @Benchmark
    public Decision denyDefault() {
        return engine.decide(denyDefault);
    }

    /** A tool with {@code action: deny}. */
    @Benchmark
    public Decision denyRule() {
        return engine.decide(denyRule);
    }

    /** {@code eq}, {@code in}, {@code lt} and {@code max_length} on the arguments, all true, then the limit. */
    @Benchmark
    @BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
    public Decision conditions4() {
        return engine.decide(conditions4);
    }

    /** Issue 9 baseline: {@code deny_if amount gt 1000} on a number, no limit. */
    @Benchmark
    public Decision denyIfNumber() {
        return engine.decide(amountNumber);
    }

    /** The same on {@code "500"}: the string is read as a decimal (one {@code BigDecimal}). */
    @Benchmark
    public Decision denyIfNumericString() {
        return engine.decide(amountString);
    }

    /** The same on {@code [100, 200, 300]}: each leaf compared. */
    @Benchmark
    public Decision denyIfNumberArray() {
        return engine.decide(amountArray);
    }

    /** Issue 9 baseline: {@code deny_if command contains "rm -rf"} on a 19-char string, no limit. */
    @Benchmark
    public Decision denyIfString() {
        return engine.decide(commandString);
    }

    /** The same on the argv {@code ["ls", "-la", "/srv/sandbox"]}: each item, then the items joined with spaces. */
    @Benchmark
    public Decision denyIfArgv() {
        return engine.decide(commandArgv);
    }

    /** One RE2/J {@code regex} condition (a search, anchored) on a 100-character value, then the limit. */
    @Benchmark
    @BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
    public Decision regex100() {
        return engine.decide(regex100);
    }
}
