package dev.mcppolicy.agent;

import dev.mcppolicy.agent.attach.AttachReport;
import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.agent.config.ConfigKey;
import dev.mcppolicy.agent.status.AgentStatus;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Properties;

/**
 * The {@code attach} command's side in the target JVM: the report it waits for, written once the start
 * has an answer (the canary's, and the policy's), and what a second attach does: no second agent, a report
 * of the running one and, with {@code policy=...}, a switch to that file.
 */
final class LateAttach {
    /** How long the report waits for the canary and the policy; the command's own wait is longer. */
    static final long SETTLE_MILLIS = 20_000;
    private static final long POLL_MILLIS = 20;

    private LateAttach() {
    }

    /** After an attach that started the agent: the report, on a daemon thread once the start is settled. */
    static void reportWhenSettled(AgentStatus status, String reportPath) {
        Thread thread = new Thread(() -> {
            long deadline = System.nanoTime() + SETTLE_MILLIS * 1_000_000L;
            try {
                while (!AttachReport.settled(status) && System.nanoTime() < deadline) {
                    Thread.sleep(POLL_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            write(AttachReport.of(AttachReport.STARTED, status), reportPath);
        }, "mcp-policy-attach-report");
        thread.setDaemon(true);
        thread.start();
    }

    /** An attach found the agent already started: reports it and, when the options name a policy, switches to it. */
    static void attachedAgain(String options, String reportPath) {
        StartGate.awaitStarted();
        RunningAgent running = RunningAgent.current();
        Diagnostics.info("attach: the agent is already running in this JVM; no second agent is started");
        if (running == null) {
            Properties report = new Properties();
            report.setProperty(AttachReport.OUTCOME, AttachReport.ALREADY_RUNNING);
            report.setProperty(AttachReport.ERROR, "the agent running in this JVM did not finish its start; see its stderr");
            write(report, reportPath);
            return;
        }
        AgentConfig config = AgentConfig.resolve(options, Map.of(), Map.of());
        AgentConfig.Setting policy = config.setting(ConfigKey.POLICY);
        // the switch may wait for the policy being read: off the attach listener's thread
        Thread thread = new Thread(() -> {
            Properties switched = new Properties();
            if (policy.value() != null && AgentConfig.AGENT_ARGS.equals(policy.source())) {
                running.switchTo(Paths.get(policy.value()), switched);
            }
            // the policy as it is after the switch
            Properties report = AttachReport.of(AttachReport.ALREADY_RUNNING, running.summary().status());
            report.putAll(switched);
            write(report, reportPath);
        }, "mcp-policy-attach-report");
        thread.setDaemon(true);
        thread.start();
    }

    /** The start threw: the command is told so instead of waiting for a report that never comes. */
    static void startFailed(Throwable error, String reportPath) {
        Properties report = new Properties();
        report.setProperty(AttachReport.OUTCOME, AttachReport.FAILED);
        report.setProperty(AttachReport.ERROR, String.valueOf(error));
        write(report, reportPath);
    }

    private static void write(Properties report, String reportPath) {
        try {
            AttachReport.write(report, Path.of(reportPath));
        } catch (Exception e) {
            Diagnostics.error("attach: cannot write the report for the attach command to " + reportPath + ": " + e);
        }
    }
}
