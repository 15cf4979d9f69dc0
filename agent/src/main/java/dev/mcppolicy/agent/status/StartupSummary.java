package dev.mcppolicy.agent.status;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.agent.config.AgentConfig.Setting;
import dev.mcppolicy.agent.config.ConfigKey;
import dev.mcppolicy.agent.instrumentation.KotlinSdkModule;
import dev.mcppolicy.agent.instrumentation.LangChain4jModule;
import dev.mcppolicy.agent.instrumentation.McpSdkModule;
import dev.mcppolicy.agent.instrumentation.ModernSdkModule;
import dev.mcppolicy.agent.instrumentation.QuarkusMcpModule;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyLint;
import dev.mcppolicy.policy.PolicyWarning;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The startup summary (docs/getting-started.md, "What the agent prints at start"): each fact the agent learns as it starts is
 * recorded in its {@link AgentStatus} and printed from there as one {@code [mcp-policy]} line on stderr.
 * Version and configuration come at premain; the policy, the instrumented classes, the canary and the
 * decision log's logger later, as each becomes known. The part run at premain uses no lambdas.
 */
public final class StartupSummary {
    private final AgentStatus status = new AgentStatus();

    /** What the agent knows so far, for readers that come later (JMX, the admin page). */
    public AgentStatus status() {
        return status;
    }

    public void started(String version, String javaVersion, boolean lateAttach) {
        started(version, javaVersion, lateAttach, true);
    }

    /** As above; {@code announce} false: the line was already printed (premain prints it before the start moves off the app's thread). */
    public void started(String version, String javaVersion, boolean lateAttach, boolean announce) {
        status.started(version, javaVersion, lateAttach);
        if (announce) {
            Diagnostics.info(startedLine(version, javaVersion, lateAttach));
        }
    }

    /** The first line of the summary: which agent, on which Java. */
    public static String startedLine(String version, String javaVersion, boolean lateAttach) {
        return "mcp-policy-agent " + version + " on Java " + javaVersion + (lateAttach ? " (attached to a running JVM)" : "");
    }

    /**
     * An ERROR line per configuration problem, then every key's effective value and its source on one
     * line. Paths are shown resolved
     * against {@code workingDirectory}.
     */
    public void configured(AgentConfig config, Path workingDirectory) {
        status.configured(config.settings());
        AgentConfig.LogTarget log = config.log();
        if (log != AgentConfig.LogTarget.APP) {
            status.decisionLog(log.name().toLowerCase(Locale.ROOT));
        }
        for (String problem : config.problems()) {
            Diagnostics.error("configuration: " + problem);
        }
        StringBuilder line = new StringBuilder("configuration:");
        String separator = " ";
        for (Setting setting : config.settings()) {
            line.append(separator).append(setting.key().key()).append('=').append(shown(setting, workingDirectory)).append(" (")
                    .append(setting.rejected() == null ? setting.source() : "default; the value in " + setting.source() + " is not valid")
                    .append(')');
            separator = ", ";
        }
        Diagnostics.info(line.toString());
    }

    private static String shown(Setting setting, Path workingDirectory) {
        if (setting.key().type() == ConfigKey.Type.PASSWORD) {
            return setting.value() == null ? "unset" : "(set)";
        }
        if (setting.key().type() == ConfigKey.Type.STORE) {
            return setting.value() == null ? "(not valid)" : AgentConfig.maskedStore(setting.value());
        }
        if (setting.key().type() == ConfigKey.Type.SECRET) {
            return setting.value() == null ? "random" : "(set)";
        }
        if (setting.key().type() == ConfigKey.Type.ADDRESS) {
            return setting.value() == null ? "off" : setting.value();
        }
        if (setting.key().type() != ConfigKey.Type.PATH) {
            return setting.value();
        }
        if (setting.value() != null) {
            return workingDirectory.resolve(setting.value()).toAbsolutePath().normalize().toString();
        }
        return setting.key() == ConfigKey.POLICY ? "mcp-policy.json|yaml|yml" : "off";
    }

    /** At premain: what will be hooked once the first MCP class loads. */
    public void waitingForMcp(boolean serializeStdio) {
        Diagnostics.info("hooks: MCP Java SDK " + McpSdkModule.VERSIONS + " server tools/call + tools/list + resources + prompts, client callTool + listTools + resources + prompts,"
                + " HTTP caller identity, stdio/SSE session cancels and closes (for held calls)" + (serializeStdio ? ", serialized stdio sends before 2.1.0" : "")
                + "; MCP Java SDK " + ModernSdkModule.VERSIONS + " modern API server tools/call + tools/list + resources + prompts, client ToolSpec.call + callOnce"
                + " + tool lists + resources + prompts; LangChain4j MCP client " + LangChain4jModule.VERSIONS + " executeTool + listTools + resources + prompts"
                + "; Quarkus MCP server " + QuarkusMcpModule.VERSIONS + " tools/call + tools/list + resources + prompts"
                + "; Kotlin MCP SDK " + KotlinSdkModule.VERSIONS + " server tools/call + tools/list + resources + prompts, client callTool + listTools"
                + " + resources + prompts"
                + "; the policy is read and the hooks installed when the first io.modelcontextprotocol, org.springframework.ai.mcp,"
                + " dev.langchain4j.mcp or io.quarkiverse.mcp class loads");
    }

    public void hooksInstalled(long millis) {
        status.hooks(new AgentStatus.Hooks(AgentStatus.Hooks.State.INSTALLED, null));
        Diagnostics.debug("MCP SDK seen; hooks ready in " + millis + " ms");
    }

    public void hooksFailed(Throwable error) {
        status.hooks(new AgentStatus.Hooks(AgentStatus.Hooks.State.FAILED, error.toString()));
        Diagnostics.error("could not install the MCP hooks; MCP tool calls are NOT policed: " + error);
        error.printStackTrace(System.err);
    }

    /** The policy line, then a WARN for each weakness {@code check} warns about (for users who never ran it). */
    public void policyLoaded(Path path, Policy policy) {
        List<PolicyWarning> warnings = PolicyLint.warnings(policy);
        List<String> texts = new ArrayList<>(warnings.size());
        for (PolicyWarning warning : warnings) {
            texts.add(warning.toString());
        }
        String mode = policy.mode().name().toLowerCase(Locale.ROOT);
        String defaultAction = policy.defaultAction().name().toLowerCase(Locale.ROOT);
        status.policy(new AgentStatus.PolicyStatus(AgentStatus.PolicyStatus.State.LOADED, path, policy.sha256(), mode, defaultAction,
                texts, null));
        Diagnostics.info("policy " + path + " sha256=" + policy.sha256() + " mode=" + mode + " default=" + defaultAction);
        for (String warning : texts) {
            Diagnostics.warn("policy " + warning);
        }
    }

    /** {@code reload=true}: the file watched for new versions. */
    public void watching(Path file, java.time.Duration interval) {
        Diagnostics.info("reload: watching " + file + " (and checking it every " + interval.toMillis() + " ms)");
    }

    /** A reload put a new version in force: one line, old hash to new. */
    public void policyReloaded(Path file, String previousSha256, Policy policy) {
        String mode = policy.mode().name().toLowerCase(Locale.ROOT);
        String defaultAction = policy.defaultAction().name().toLowerCase(Locale.ROOT);
        List<String> warnings = new ArrayList<>();
        for (PolicyWarning warning : PolicyLint.warnings(policy)) {
            warnings.add(warning.toString());
        }
        status.policy(new AgentStatus.PolicyStatus(AgentStatus.PolicyStatus.State.LOADED, file, policy.sha256(), mode, defaultAction,
                warnings, null));
        status.reloaded(new AgentStatus.ReloadResult(AgentStatus.ReloadResult.Outcome.APPLIED, java.time.Instant.now(),
                previousSha256, policy.sha256(), 0));
        Diagnostics.info("policy reloaded: " + file + " sha256=" + shortHash(previousSha256) + " -> " + policy.sha256()
                + " mode=" + mode + " default=" + defaultAction);
        for (String warning : warnings) {
            Diagnostics.warn("policy " + warning);
        }
    }

    /** A new version that is not valid: one line with its error count, then its errors; the policy in force stays. */
    public void policyReloadRejected(Path file, String rejectedSha256, String inForceSha256, String errors) {
        int count = errors == null ? 0 : (int) errors.lines().filter(line -> line.startsWith("  ")).count();
        status.reloaded(new AgentStatus.ReloadResult(AgentStatus.ReloadResult.Outcome.REJECTED, java.time.Instant.now(),
                inForceSha256, rejectedSha256, count));
        Diagnostics.error("policy reload rejected: " + file + " sha256=" + rejectedSha256 + " (" + count + (count == 1 ? " error" : " errors")
                + "); the policy in force stays (sha256=" + shortHash(inForceSha256) + "): " + errors);
    }

    /** The watched file is gone: the policy in force stays. */
    public void policyFileRemoved(Path file, String inForceSha256) {
        status.reloaded(new AgentStatus.ReloadResult(AgentStatus.ReloadResult.Outcome.FILE_REMOVED, java.time.Instant.now(),
                inForceSha256, null, 0));
        Diagnostics.warn("policy file removed: " + file + "; the policy in force stays (sha256=" + shortHash(inForceSha256)
                + ") until a new version is written there");
    }

    private static String shortHash(String sha256) {
        return sha256 == null ? "(none)" : sha256;
    }

    /** No policy in force: every call is answered by {@code on_error}; {@code errors} lists why (every parse error). */
    public void policyUnavailable(Path path, String errors, boolean failOpen) {
        status.policy(new AgentStatus.PolicyStatus(AgentStatus.PolicyStatus.State.UNAVAILABLE, path, null, null, null, List.of(), errors));
        if (failOpen) {
            Diagnostics.error("policy unavailable, every tool call will be ALLOWED unchecked (on_error=allow): " + errors);
        } else {
            Diagnostics.error("policy unavailable, every tool call will be denied (on_error=deny): " + errors);
        }
    }

    /**
     * One class woven: a WARN per hook that found no method (those calls are not policed), then, for an
     * SDK class ({@code announce}), the hooks it got.
     */
    public void instrumented(String type, String sdk, List<String> hooks, List<String> missing, boolean announce) {
        instrumented(type, sdk, hooks, missing, announce, "the SDK " + McpSdkModule.VERSIONS + " shape");
    }

    /** As above; {@code expectedShape} says what a missing hook was looked for in ({@code the SDK 0.10.0 - 2.2.0 shape}). */
    public void instrumented(String type, String sdk, List<String> hooks, List<String> missing, boolean announce, String expectedShape) {
        if (announce) {
            status.instrumented(new AgentStatus.Instrumented(type, sdk, hooks, missing));
        }
        for (String hook : missing) {
            Diagnostics.warn("NOT instrumented: " + type + " " + sdk + ": no method for " + hook
                    + " (expected " + expectedShape + "); these calls are NOT policed");
        }
        if (!hooks.isEmpty() && announce) {
            Diagnostics.info("instrumented " + type + " " + sdk + ": " + String.join(", ", hooks));
        }
    }

    public void canaryFired() {
        status.canary(new AgentStatus.CanaryResult(AgentStatus.CanaryResult.Outcome.HOOKS_FIRE, null));
        Diagnostics.info("canary: the hooks fire (a woven tools/call handler reached the policy)");
    }

    /** The canary's handler answered {@code answer} rather than the hooks' answer. */
    public void canaryDidNotFire(String answer) {
        status.canary(new AgentStatus.CanaryResult(AgentStatus.CanaryResult.Outcome.HOOKS_DID_NOT_FIRE, answer));
        Diagnostics.error("canary: the hooks did not fire (" + answer + "); MCP tool calls are NOT policed");
    }

    public void canaryNotChecked(Throwable error) {
        status.canary(new AgentStatus.CanaryResult(AgentStatus.CanaryResult.Outcome.NOT_CHECKED, error.toString()));
        Diagnostics.error("canary: the hooks could not be checked, MCP tool calls may NOT be policed: " + error);
    }

    /** The admin endpoint listens at {@code url}; {@code token} says where its token is (never the token). */
    public void adminStarted(String url, String token) {
        Diagnostics.info("admin: " + url + " (loopback only; " + token + ")");
    }

    /** The admin endpoint was not started: {@code why}. The app runs on. */
    public void adminRefused(String why) {
        Diagnostics.error("admin: " + why + "; the admin endpoint is not started");
    }

    /** With {@code log=app}, the logger the first decision found. */
    public void decisionLogChosen(String sink) {
        status.decisionLog(sink);
        Diagnostics.info("decision log: " + sink);
    }
}
