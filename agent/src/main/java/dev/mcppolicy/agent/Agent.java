package dev.mcppolicy.agent;

import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.agent.log.RecentDecisions;
import dev.mcppolicy.agent.metrics.DecisionCounters;
import dev.mcppolicy.agent.status.StartupSummary;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.util.Properties;

/**
 * Starts the agent behind the doorman: configuration, the startup summary and the lazy installer,
 * which reads the policy (on a thread of its own) and weaves the hooks once MCP shows up. Kept free of lambdas and of ASM: everything
 * here runs before the app's {@code main}, in every JVM the agent is put on.
 */
final class Agent {
    private Agent() {
    }

    /**
     * @param reportPath where an attach wants its report ({@code LateAttach}), or {@code null}
     * @return the installer; at {@code -javaagent} time {@link StartGate} hands it the classes, on attach it is registered here
     */
    static LazyInstaller start(String args, Instrumentation inst, boolean lateAttach, String reportPath) {
        return start(args, inst, lateAttach, reportPath, true);
    }

    /** As above; {@code announce} false: {@link StartGate} already printed the summary's first line. */
    static LazyInstaller start(String args, Instrumentation inst, boolean lateAttach, String reportPath, boolean announce) {
        AgentConfig config = AgentConfig.resolve(args);
        Diagnostics.setDebug(config.debug());
        StartupSummary summary = new StartupSummary();
        summary.started(version(), System.getProperty("java.version"), lateAttach, announce);

        Path workingDirectory = Paths.get("").toAbsolutePath();
        Path mainJarDirectory = mainJarDirectory();
        PolicyHolder policy = PolicyHolder.loading(config.failOpen());
        // read when the first MCP class appears: a JVM without MCP never pays for Jackson and the engine
        Path policyPath = config.policyPath(workingDirectory, mainJarDirectory);
        // with no policy file anywhere, a reload watches for one in the working directory
        Path watched = !config.reload() ? null : policyPath != null ? policyPath : workingDirectory.resolve("mcp-policy.json");
        DecisionCounters counters = new DecisionCounters();
        // the policy's rehearsal renders what the listeners will: no JSON forms without audit or admin
        PolicyReader.rehearseAs(config.log() != AgentConfig.LogTarget.OFF, config.audit() != null, config.admin() != null,
                config.logArguments());
        // the admin page's ring buffer, only when it is on: otherwise no class of it loads and no decision pays for it
        RecentDecisions recent = config.admin() == null ? null : new RecentDecisions(RecentDecisions.CAPACITY);
        // approvals need a channel to ask a person through: the admin endpoint
        Approvals approvals = config.admin() == null ? null : new Approvals(config.approvalMaxPending(), Clock.systemUTC());
        PolicyLoader loader = new PolicyLoader(policy, policyPath, config.defaultPolicySearch(workingDirectory, mainJarDirectory),
                config.failOpen(), summary, watched, config.reloadInterval(), counters, config, recent, approvals, !lateAttach);
        summary.configured(config, workingDirectory);
        RunningAgent.started(policy, summary, loader);

        LazyInstaller installer = new LazyInstaller(policy, new DecisionLogRecipe(config, workingDirectory, summary, counters, recent), loader, config.serializeStdio(), summary, approvals,
                config.logArguments(), !lateAttach);
        if (lateAttach) {
            inst.addTransformer(installer, true);
            // the MCP classes already loaded are woven now: from their next call on, existing servers and clients are decided
            if (installer.activate() != null) {
                LazyInstaller.retransformLoaded(inst, HookedTypes.INTERNAL_NAMES);
            }
            if (reportPath != null) {
                LateAttach.reportWhenSettled(summary.status(), reportPath);
            }
        } else {
            summary.waitingForMcp(config.serializeStdio());
        }
        return installer;
    }

    private static Path mainJarDirectory() {
        String command = System.getProperty("sun.java.command", "");
        String first = command.split(" ", 2)[0];
        if (first.endsWith(".jar")) {
            Path parent = Paths.get(first).toAbsolutePath().getParent();
            return parent;
        }
        return null;
    }

    static String version() {
        // the manifest's, which the class loader read when it defined this package: no second look into the jar
        String fromManifest = Agent.class.getPackage().getImplementationVersion();
        if (fromManifest != null) {
            return fromManifest;
        }
        try (InputStream in = Agent.class.getResourceAsStream("/META-INF/mcp-policy/agent.properties")) {
            Properties properties = new Properties();
            if (in != null) {
                properties.load(in);
            }
            return properties.getProperty("version", "unknown");
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
