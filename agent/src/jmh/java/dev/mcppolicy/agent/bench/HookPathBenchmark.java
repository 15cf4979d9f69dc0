package dev.mcppolicy.agent.bench;

import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicyReader;
import dev.mcppolicy.agent.log.BenchLines;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.sdk.McpHooks;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.log.DecisionRecord;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the agent adds to one server {@code tools/call} besides the engine's decision: reading the call
 * from the SDK's objects by reflection (tool, arguments, session, client identity), deciding through the
 * holder, and building the decision line. The SDK objects are stand-ins with the SDK's shapes (raw
 * params map, an exchange with {@code sessionId()}, {@code getClientInfo()}, {@code transportContext()}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class HookPathBenchmark {
    private McpHooks hooks;
    /** The same hooks with the decision line on ({@code log=app}), written to a sink that keeps it. */
    private McpHooks loggedHooks;
    private Object exchange;
    private Map<String, Object> params;
    private ToolCall call;
    private Decision allowed;

    /** With {@code on}, a {@code PolicyWatcher} watches the policy file meanwhile (issue 12: reload must cost the path nothing). */
    @Param({"off", "on"})
    public String reload;

    /**
     * {@code absent}: the app has no Micrometer (the SDK's stand-ins come from a class loader that cannot see the
     * benchmark's); {@code present}: the decisions also go to Micrometer's global registry, as in an app that has it.
     */
    @Param({"absent", "present"})
    public String micrometer;

    /**
     * {@code none}: the policy has tools alone; {@code other}: it also has {@code resources}, {@code prompts} and a
     * {@code result} rule on another tool (SPEC §12–§13, issue 31), so the hook asks for echo's result judge, which it
     * has none of: the sections' cost to a call they do not concern.
     */
    @Param({"none", "other"})
    public String sections;

    @Setup
    public void setUp() throws Exception {
        Path policy = Files.createTempFile("bench-policy", ".json");
        Files.writeString(policy, sections.equals("none") ? "{\"version\":\"1\",\"default\":\"deny\",\"tools\":{\"echo\":{}}}"
                : "{\"version\":\"1\",\"default\":\"deny\",\"tools\":{\"echo\":{},\"cat\":{\"result\":{\"redact\":[\"secrets\"]}}},"
                        + "\"resources\":{\"file:///public/*\":{}},\"resource_default\":\"deny\",\"prompts\":{\"p\":{}}}");
        PolicyHolder holder = PolicyHolder.of(PolicyReader.read(policy, policy.toString(), false, Clock.systemUTC()));
        hooks = new McpHooks(holder, new DecisionLog(List.of(), false));
        loggedHooks = new McpHooks(holder, new DecisionLog(List.of(BenchLines.kept()), false));
        if (reload.equals("on")) {
            new dev.mcppolicy.agent.reload.PolicyWatcher(holder, policy, java.time.Duration.ofSeconds(2),
                    new dev.mcppolicy.agent.status.StartupSummary(), Clock.systemUTC()).start();
        }
        if (micrometer.equals("present")) {
            exchange = new FakeMcpAsyncServerExchange();
        } else {
            // the same class from a loader that sees the JDK alone, as an SDK that has no Micrometer beside it
            URL classes = HookPathBenchmark.class.getProtectionDomain().getCodeSource().getLocation();
            ClassLoader app = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader());
            exchange = Class.forName(FakeMcpAsyncServerExchange.class.getName(), true, app).getConstructor().newInstance();
        }
        // as the SDK's Jackson reads them: LinkedHashMaps
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("text", "hello");
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("name", "echo");
        request.put("arguments", arguments);
        params = request;
        call = new ToolCall(Side.SERVER, null, "echo", arguments, "c8a5093e-1a97-4464-808e-9a0d280f6666", "perf-client", null);
        allowed = holder.current().decide(call);
        if (hooks.serverCall(null, exchange, params, null) != null) {
            throw new IllegalStateException("echo must be allowed");
        }
    }

    /** The yardstick measured in the same run: one {@code Instant.now()} (every decision line reads the clock once). */
    @Benchmark
    public Instant baselineInstantNow() {
        return Instant.now();
    }

    /** The whole hook on an allowed call with {@code log=off}: reflection + decision, no line. */
    @Benchmark
    public Object serverCallAllowedLogOff() {
        return hooks.serverCall(null, exchange, params, null);
    }

    /**
     * Goal 4 of issue 16 as one measurement: the whole hook on an allowed call with the decision line on
     * ({@code log=app}): reflection, decision, counters, the record and its line, handed to the sink.
     */
    @Benchmark
    public Object serverCallAllowedLogged() {
        return loggedHooks.serverCall(null, exchange, params, null);
    }

    /** The decision line the log gets for such a call (canonical-JSON SHA-256 of the arguments included). */
    @Benchmark
    public String decisionLine() {
        return new DecisionRecord(Instant.now(), call, allowed, 3, false).toLine();
    }

    /**
     * The line as a log with the line alone makes it: no listener reads the record's time, so no clock is read
     * ({@code DecisionListener.readsTime}, issue 16). With the audit file or the admin page on, {@link #decisionLine}.
     */
    @Benchmark
    public String decisionLineAsLogged() {
        return new DecisionRecord(null, call, allowed, 3, false).toLine();
    }

    /** The SDK's exchange, as far as the hooks read it; the class name ends with {@code ServerExchange} like the SDK's. */
    public static final class FakeMcpAsyncServerExchange {
        private final Implementation clientInfo = new Implementation("perf-client");
        private final TransportContext context = new TransportContext();

        public String sessionId() {
            return "c8a5093e-1a97-4464-808e-9a0d280f6666";
        }

        public Implementation getClientInfo() {
            return clientInfo;
        }

        public TransportContext transportContext() {
            return context;
        }
    }

    public record Implementation(String name) {
    }

    /** An empty transport context (stdio, or HTTP without a credential). */
    public static final class TransportContext {
        public Object get(String key) {
            return null;
        }
    }
}
