package dev.mcppolicy.agent.attach;

import dev.mcppolicy.agent.status.AgentStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Properties;

/**
 * What an attached agent tells the {@code attach} command, as a properties file the agent writes
 * whole (a temporary file renamed over) once it knows how its start went: the command waits for the file
 * to appear. Both sides use this class, so the keys are written once. The command's path to the file
 * travels in front of the agent arguments ({@link #agentArgs}).
 */
public final class AttachReport {
    /** Marks agent arguments that carry a report path: {@code PREFIX + path + '\n' + key=value,...}. */
    static final String PREFIX = "mcp-policy-attach-report:";

    public static final String OUTCOME = "outcome";
    /** The agent started in this attach. */
    public static final String STARTED = "started";
    /** An agent was already running: nothing new was loaded. */
    public static final String ALREADY_RUNNING = "already-running";
    /** The agent threw while starting. */
    public static final String FAILED = "failed";

    public static final String VERSION = "agent.version";
    public static final String JAVA = "java.version";
    public static final String ATTACHED = "agent.attached";
    public static final String ERROR = "error";
    public static final String HOOKS = "hooks";
    public static final String HOOKS_ERROR = "hooks.error";
    public static final String CANARY = "canary";
    public static final String CANARY_DETAIL = "canary.detail";
    public static final String POLICY = "policy";
    public static final String POLICY_PATH = "policy.path";
    public static final String POLICY_SHA256 = "policy.sha256";
    public static final String POLICY_DEFAULT = "policy.default";
    public static final String POLICY_MODE = "policy.mode";
    public static final String POLICY_ERRORS = "policy.errors";
    /** {@code instrumented.N}: "type (sdk): hook, hook" for each woven MCP class, N from 0. */
    public static final String INSTRUMENTED = "instrumented.";
    /** {@code missing.N}: "type (sdk): hook" for each hook that found no method (NOT policed). */
    public static final String MISSING = "missing.";
    /** On an attach to a running agent with {@code --policy}: {@link #APPLIED}, {@link #UNCHANGED} or {@link #REJECTED}. */
    public static final String SWITCH = "switch";
    public static final String SWITCH_DETAIL = "switch.detail";
    public static final String APPLIED = "applied";
    public static final String UNCHANGED = "unchanged";
    public static final String REJECTED = "rejected";

    private AttachReport() {
    }

    /** The agent arguments the command passes: the report path in front of the agent's own {@code key=value,...}. */
    public static String agentArgs(Path report, String options) {
        String path = report.toAbsolutePath().toString();
        if (path.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("a report path with a line break: " + path);
        }
        return PREFIX + path + "\n" + options;
    }

    /** The report path in agent arguments, or {@code null} when they carry none (a {@code -javaagent} start). */
    public static String reportPath(String agentArgs) {
        if (agentArgs == null || !agentArgs.startsWith(PREFIX)) {
            return null;
        }
        int end = agentArgs.indexOf('\n');
        return end < 0 ? null : agentArgs.substring(PREFIX.length(), end);
    }

    /** The agent's own {@code key=value,...} of agent arguments, without the report path. */
    public static String options(String agentArgs) {
        if (agentArgs == null || !agentArgs.startsWith(PREFIX)) {
            return agentArgs;
        }
        int end = agentArgs.indexOf('\n');
        return end < 0 ? "" : agentArgs.substring(end + 1);
    }

    /** What the status says so far: version, hooks, the classes woven, the canary and the policy. */
    public static Properties of(String outcome, AgentStatus status) {
        Properties report = new Properties();
        report.setProperty(OUTCOME, outcome);
        report.setProperty(VERSION, status.version());
        report.setProperty(JAVA, status.javaVersion());
        report.setProperty(ATTACHED, String.valueOf(status.lateAttach()));
        report.setProperty(HOOKS, status.hooks().state().name());
        if (status.hooks().error() != null) {
            report.setProperty(HOOKS_ERROR, status.hooks().error());
        }
        report.setProperty(CANARY, status.canary().outcome().name());
        if (status.canary().detail() != null) {
            report.setProperty(CANARY_DETAIL, status.canary().detail());
        }
        AgentStatus.PolicyStatus policy = status.policy();
        report.setProperty(POLICY, policy.state().name());
        setIf(report, POLICY_PATH, policy.path() == null ? null : policy.path().toString());
        setIf(report, POLICY_SHA256, policy.sha256());
        setIf(report, POLICY_DEFAULT, policy.defaultAction());
        setIf(report, POLICY_MODE, policy.mode());
        setIf(report, POLICY_ERRORS, policy.errors());
        int woven = 0;
        int missing = 0;
        for (AgentStatus.Instrumented type : status.instrumented()) {
            if (!type.hooks().isEmpty()) {
                report.setProperty(INSTRUMENTED + woven++, type.type() + " " + type.sdk() + ": " + String.join(", ", type.hooks()));
            }
            for (String hook : type.missing()) {
                report.setProperty(MISSING + missing++, type.type() + " " + type.sdk() + ": " + hook);
            }
        }
        return report;
    }

    /** Whether the start has gone as far as it goes: the canary and the policy both have an answer, or the hooks failed. */
    public static boolean settled(AgentStatus status) {
        if (status.hooks().state() == AgentStatus.Hooks.State.FAILED) {
            return status.policy().state() != AgentStatus.PolicyStatus.State.NOT_READ;
        }
        return status.canary().outcome() != AgentStatus.CanaryResult.Outcome.NOT_RUN
                && status.policy().state() != AgentStatus.PolicyStatus.State.NOT_READ;
    }

    /** Writes {@code report} to {@code file} whole: a reader sees no file or all of it. */
    public static void write(Properties report, Path file) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(temporary)) {
            report.store(out, "mcp-policy-agent attach report");
        }
        try {
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    public static Properties read(Path file) throws IOException {
        Properties report = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            report.load(in);
        }
        return report;
    }

    /** The values of {@code prefix + 0}, {@code prefix + 1}, ... in order. */
    public static List<String> list(Properties report, String prefix) {
        List<String> values = new java.util.ArrayList<>();
        for (int i = 0; report.getProperty(prefix + i) != null; i++) {
            values.add(report.getProperty(prefix + i));
        }
        return values;
    }

    private static void setIf(Properties report, String key, String value) {
        if (value != null) {
            report.setProperty(key, value);
        }
    }
}
