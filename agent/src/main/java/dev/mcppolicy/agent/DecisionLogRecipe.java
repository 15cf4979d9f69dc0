package dev.mcppolicy.agent;

import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.log.RecentDecisions;
import dev.mcppolicy.agent.metrics.DecisionCounters;
import dev.mcppolicy.agent.status.StartupSummary;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * What {@code log}, {@code audit} and {@code log_arguments} ask for, built into a {@link DecisionLog} when the
 * first MCP class loads rather than at premain: the log line's classes, SHA-256 (the JDK's security providers,
 * about 35 ms cold) and the audit file cost a JVM without MCP nothing. A named class, not a lambda, because
 * premain stays free of {@code java.lang.invoke}.
 */
final class DecisionLogRecipe implements Supplier<DecisionLog> {
    private final AgentConfig config;
    private final Path workingDirectory;
    private final StartupSummary summary;
    private final DecisionCounters counters;
    private final RecentDecisions recent;

    DecisionLogRecipe(AgentConfig config, Path workingDirectory, StartupSummary summary, DecisionCounters counters, RecentDecisions recent) {
        this.config = config;
        this.workingDirectory = workingDirectory;
        this.summary = summary;
        this.counters = counters;
        this.recent = recent;
    }

    @Override
    public DecisionLog get() {
        String audit = config.audit();
        return DecisionLog.configured(config.log(), audit == null ? null : workingDirectory.resolve(audit), config.logArguments(), summary,
                counters, recent).hashingUsers(config.hashUser()).tracing(config.traced());
    }
}
