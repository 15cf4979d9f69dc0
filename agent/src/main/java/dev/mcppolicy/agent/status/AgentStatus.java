package dev.mcppolicy.agent.status;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.config.AgentConfig.Setting;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the agent is doing, as immutable snapshots: the configuration and where each value came from,
 * the policy, the hooks and the classes they instrumented, the canary's result and the error counts.
 * The startup summary is printed from it ({@link StartupSummary}, which alone fills it in); JMX and the
 * admin page read it. It prints nothing.
 */
public final class AgentStatus {
    private volatile String version = "unknown";
    private volatile String javaVersion = "unknown";
    private volatile boolean lateAttach;
    private volatile List<Setting> configuration = List.of();
    private volatile String decisionLog;
    private volatile PolicyStatus policy = PolicyStatus.NOT_READ;
    private volatile Hooks hooks = new Hooks(Hooks.State.WAITING_FOR_MCP, null);
    private final List<Instrumented> instrumented = new CopyOnWriteArrayList<>();
    private volatile CanaryResult canary = new CanaryResult(CanaryResult.Outcome.NOT_RUN, null);
    private volatile ReloadResult lastReload;
    private final java.util.concurrent.atomic.AtomicLong reloadsApplied = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong reloadsRejected = new java.util.concurrent.atomic.AtomicLong();
    private volatile String storeState = "memory";
    private final java.util.concurrent.atomic.AtomicLong storeOutages = new java.util.concurrent.atomic.AtomicLong();

    AgentStatus() {
    }

    public String version() {
        return version;
    }

    public String javaVersion() {
        return javaVersion;
    }

    /** Whether the agent was attached to a running JVM rather than started with {@code -javaagent}. */
    public boolean lateAttach() {
        return lateAttach;
    }

    /** Every configuration key's effective value and its source, in declared order. */
    public List<Setting> configuration() {
        return configuration;
    }

    /**
     * Where decision lines go: {@code stderr}, {@code off}, the logger {@code log=app} found at the first
     * decision, or {@code null} while {@code log=app} has not decided anything yet.
     */
    public String decisionLog() {
        return decisionLog;
    }

    public PolicyStatus policy() {
        return policy;
    }

    public Hooks hooks() {
        return hooks;
    }

    /** The MCP classes woven so far, in the order they loaded, each with the hooks it got and those it lacks. */
    public List<Instrumented> instrumented() {
        return List.copyOf(instrumented);
    }

    public CanaryResult canary() {
        return canary;
    }

    /** The agent's own errors so far (each also reported on stderr when it first happened). */
    public Errors errors() {
        return new Errors(Diagnostics.adviceErrors(), Diagnostics.adviceErrorsByKind(), Diagnostics.listenerErrors());
    }

    void started(String version, String javaVersion, boolean lateAttach) {
        this.version = version;
        this.javaVersion = javaVersion;
        this.lateAttach = lateAttach;
    }

    void configured(List<Setting> configuration) {
        this.configuration = List.copyOf(configuration);
    }

    void decisionLog(String decisionLog) {
        this.decisionLog = decisionLog;
    }

    void policy(PolicyStatus policy) {
        this.policy = policy;
    }

    void hooks(Hooks hooks) {
        this.hooks = hooks;
    }

    void instrumented(Instrumented type) {
        instrumented.add(type);
    }

    void reloaded(ReloadResult result) {
        lastReload = result;
        if (result.outcome() == ReloadResult.Outcome.APPLIED) {
            reloadsApplied.incrementAndGet();
        } else if (result.outcome() == ReloadResult.Outcome.REJECTED) {
            reloadsRejected.incrementAndGet();
        }
    }

    /** The last reload's result, or {@code null} when the file has not changed since it was read. */
    public ReloadResult lastReload() {
        return lastReload;
    }

    public long reloadsApplied() {
        return reloadsApplied.get();
    }

    public long reloadsRejected() {
        return reloadsRejected.get();
    }

    /**
     * What a change of the policy file did: a new version put in force ({@code from} → {@code to}), a
     * version rejected ({@code to}, with its error count; {@code from} stays), or the file removed.
     */
    public record ReloadResult(Outcome outcome, java.time.Instant at, String from, String to, int errors) {
        public enum Outcome { APPLIED, REJECTED, FILE_REMOVED }
    }

    void canary(CanaryResult canary) {
        this.canary = canary;
    }

    /**
     * The policy in force: not read yet (a JVM without MCP never reads it), loaded (its file, SHA-256,
     * mode, default and the weaknesses {@code check} warns about), or unavailable, with the errors that
     * make {@code on_error} answer every call.
     */
    public record PolicyStatus(State state, Path path, String sha256, String mode, String defaultAction, List<String> warnings,
            String errors) {
        public enum State { NOT_READ, LOADED, UNAVAILABLE }

        static final PolicyStatus NOT_READ = new PolicyStatus(State.NOT_READ, null, null, null, null, List.of(), null);

        public PolicyStatus {
            warnings = List.copyOf(warnings);
        }
    }

    /** The weaving transformer: waiting for the first MCP class, installed, or failed to install ({@code error}). */
    public record Hooks(State state, String error) {
        public enum State { WAITING_FOR_MCP, INSTALLED, FAILED }
    }

    /** One woven MCP class: {@code sdk} is "(mcp-core 1.1.5)"; {@code missing} the hooks that found no method (NOT policed). */
    public record Instrumented(String type, String sdk, List<String> hooks, List<String> missing) {
        public Instrumented {
            hooks = List.copyOf(hooks);
            missing = List.copyOf(missing);
        }
    }

    /** Whether the canary proved that woven code reaches the policy; {@code detail} says why not. */
    public record CanaryResult(Outcome outcome, String detail) {
        public enum Outcome { NOT_RUN, HOOKS_FIRE, HOOKS_DID_NOT_FIRE, NOT_CHECKED }
    }

    /**
     * Advice errors in all and by kind ({@code where / exception class}), and how often each decision
     * listener threw.
     */
    public record Errors(long adviceErrors, Map<String, Long> adviceErrorsByKind, Map<String, Long> listenerErrors) {
        public Errors {
            adviceErrorsByKind = Collections.unmodifiableMap(new TreeMap<>(adviceErrorsByKind));
            listenerErrors = Collections.unmodifiableMap(new TreeMap<>(listenerErrors));
        }
    }

    /** The rate-limit store now: {@code memory}, {@code redis: available} or {@code redis: unavailable}. */
    public String storeState() {
        return storeState;
    }

    /** How often the shared store became unavailable (each time, calls with limits were decided by {@code store_fail}). */
    public long storeOutages() {
        return storeOutages.get();
    }

    /** Records the shared store's state after a change (one per change, never per call). */
    public void storeChanged(boolean available) {
        storeState = available ? "redis: available" : "redis: unavailable";
        if (!available) {
            storeOutages.incrementAndGet();
        }
    }
}
