package dev.mcppolicy.agent;

import dev.mcppolicy.agent.attach.AttachReport;
import dev.mcppolicy.agent.status.StartupSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Properties;

/**
 * The agent running in this JVM, as an attach that finds it already started sees it: its status for the
 * report, and the policy holder a {@code --policy} switches, as a reload does (the new file on the old
 * engine's rate-limit store, put in force between calls, watched from then on when {@code reload=true}).
 */
final class RunningAgent {
    private static volatile RunningAgent current;

    private final PolicyHolder policy;
    private final StartupSummary summary;
    private final PolicyLoader loader;

    private RunningAgent(PolicyHolder policy, StartupSummary summary, PolicyLoader loader) {
        this.policy = policy;
        this.summary = summary;
        this.loader = loader;
    }

    static void started(PolicyHolder policy, StartupSummary summary, PolicyLoader loader) {
        current = new RunningAgent(policy, summary, loader);
    }

    /** The agent started in this JVM, or {@code null} when its start failed before it got this far. */
    static RunningAgent current() {
        return current;
    }

    StartupSummary summary() {
        return summary;
    }

    /** Puts the policy in {@code file} in force and says how in {@code report} ({@link AttachReport#SWITCH}). */
    synchronized void switchTo(Path file, Properties report) {
        Path path = file.toAbsolutePath().normalize();
        if (!policy.isLoaded() && loader.getState() == Thread.State.NEW) {
            rejected(report, "the running agent has not read a policy yet (no MCP class has loaded in this JVM), so there is"
                    + " nothing to switch; it reads its own policy when MCP loads");
            return;
        }
        PolicySnapshot previous = policy.current();
        String previousSha256 = previous.engine() == null ? null : previous.engine().policy().sha256();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException | SecurityException e) {
            rejected(report, "cannot read " + path + " in the target JVM: " + e);
            Diagnostics.error("attach: cannot read the policy " + path + ": " + e + "; the policy in force stays");
            return;
        }
        PolicySnapshot next = PolicyReader.reread(path, bytes, previous, Clock.systemUTC());
        if (next.engine() == null) {
            rejected(report, next.unavailableDetails() == null ? "the policy is not valid" : next.unavailableDetails());
            summary.policyReloadRejected(path, dev.mcppolicy.json.CanonicalJson.sha256Hex(bytes), previousSha256,
                    next.unavailableDetails());
            return;
        }
        String sha256 = next.engine().policy().sha256();
        if (sha256.equals(previousSha256) && path.equals(previous.path() == null ? null : previous.path().toAbsolutePath().normalize())) {
            report.setProperty(AttachReport.SWITCH, AttachReport.UNCHANGED);
            report.setProperty(AttachReport.SWITCH_DETAIL, path + " is the policy in force already (sha256=" + sha256 + ")");
            return;
        }
        policy.replace(next);
        summary.policyReloaded(path, previousSha256, next.engine().policy());
        loader.watchInstead(path);
        report.setProperty(AttachReport.SWITCH, AttachReport.APPLIED);
        report.setProperty(AttachReport.SWITCH_DETAIL, path + " sha256=" + sha256);
    }

    private static void rejected(Properties report, String why) {
        report.setProperty(AttachReport.SWITCH, AttachReport.REJECTED);
        report.setProperty(AttachReport.SWITCH_DETAIL, why);
    }
}
