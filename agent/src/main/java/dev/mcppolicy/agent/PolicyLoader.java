package dev.mcppolicy.agent;

import dev.mcppolicy.agent.pins.ToolPins;
import dev.mcppolicy.agent.admin.AdminServer;
import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.agent.config.ConfigKey;
import dev.mcppolicy.agent.log.DigestSwitch;
import dev.mcppolicy.agent.log.RecentDecisions;
import dev.mcppolicy.agent.status.StartupSummary;
import dev.mcppolicy.agent.store.Stores;
import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.agent.metrics.DecisionCounters;
import dev.mcppolicy.agent.metrics.JmxRegistration;
import dev.mcppolicy.agent.reload.PolicyWatcher;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Clock;

/**
 * Reads the policy off the app's main thread (parsing loads Jackson and the engine, tens of
 * milliseconds the app's start-up need not wait for), completes the holder, and tells the startup
 * summary what it read. Tool calls that arrive first wait for it. With {@code reload=true} it then
 * starts the {@link PolicyWatcher}, and with {@code admin} set the {@link AdminServer}. Last, it waits until the
 * app serves to move the agent's hashes to the JDK's digest ({@link DigestSwitch}).
 */
final class PolicyLoader extends Thread {
    private final PolicyHolder target;
    private final Path path;
    private final String searched;
    private final boolean failOpen;
    private final StartupSummary summary;
    /**
     * The file to watch for new versions once the first is read, or {@code null}: {@code reload=false}. An
     * attach with {@code --policy} changes it ({@link #watchInstead}). Guarded by {@code this}, as is {@link #watcher}.
     */
    private Path watched;
    private PolicyWatcher watcher;
    private final Duration reloadInterval;
    private final DecisionCounters counters;
    private final AgentConfig config;
    /** The admin page's recent decisions, or {@code null}: {@code admin} is off. */
    private final RecentDecisions recent;
    /** Where calls that need approval are held once the admin endpoint is up, or {@code null}. */
    private final Approvals approvals;

    /** Whether the app is starting (an agent started with the JVM): no JDK digest until it serves ({@link DigestSwitch}). */
    private final boolean appStarting;

    PolicyLoader(PolicyHolder target, Path path, String searched, boolean failOpen, StartupSummary summary, Path watched,
            Duration reloadInterval, DecisionCounters counters, AgentConfig config, RecentDecisions recent, Approvals approvals,
            boolean appStarting) {
        super("mcp-policy-loader");
        this.appStarting = appStarting;
        this.approvals = approvals;
        setDaemon(true);
        this.target = target;
        this.path = path;
        this.searched = searched;
        this.failOpen = failOpen;
        this.summary = summary;
        this.watched = watched;
        this.reloadInterval = reloadInterval;
        this.counters = counters;
        this.config = config;
        this.recent = recent;
    }

    @Override
    public void run() {
        if (appStarting) {
            CanonicalJson.useOwnDigest();
        }
        PolicySnapshot read;
        try {
            if (TestHooks.GATED) {
                TestHooks.awaitGate();
            }
            read = PolicyReader.read(path, searched, failOpen, Clock.systemUTC(), Stores.configured(config, summary));
        } catch (Throwable t) {
            read = PolicyReader.read(null, "(the policy loader failed: " + t + ")", failOpen, Clock.systemUTC());
        }
        target.completeWith(read);
        PolicyEngine engine = read.engine();
        if (engine != null) {
            summary.policyLoaded(read.path(), engine.policy());
        } else {
            summary.policyUnavailable(read.path(), read.unavailableDetails(), failOpen);
        }
        // JMX only now that MCP is here, never on the app's threads, and not while the app is starting (JmxRegistration)
        JmxRegistration.registerWhenServed(counters, summary.status());
        synchronized (this) {
            if (watched != null) {
                ToolPins.shared().reloading(true);
                watcher = new PolicyWatcher(target, watched, reloadInterval, summary, Clock.systemUTC());
                watcher.start();
                summary.watching(watched, reloadInterval);
            }
        }
        String[] admin = config.admin();
        if (admin != null && recent != null) {
            AdminServer.start(admin[0], Integer.parseInt(admin[1]), config.adminToken(), config.setting(ConfigKey.ADMIN_TOKEN).source(),
                    target, summary, counters, recent, approvals);
        }
        DigestSwitch.switchWhenServed();
    }

    /**
     * With {@code reload=true}, watches {@code file} from now on instead of the file watched so far (an attach
     * switched the policy to it); the old watcher stops. Without reload, nothing is watched.
     */
    synchronized void watchInstead(Path file) {
        if (watched == null || watched.equals(file)) {
            return;
        }
        watched = file;
        if (watcher != null) {
            watcher.interrupt();
            watcher = new PolicyWatcher(target, file, reloadInterval, summary, Clock.systemUTC());
            watcher.start();
            summary.watching(file, reloadInterval);
        }
    }
}
