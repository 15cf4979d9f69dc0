package dev.mcppolicy.agent;

import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.agent.log.DecisionLog;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;

/**
 * Starts the agent behind the doorman: configuration, the startup summary and the lazy installer,
 * which reads the policy (on a thread of its own) and weaves the hooks once MCP shows up. Kept free of lambdas and of ASM: everything
 * here runs before the app's {@code main}, in every JVM the agent is put on.
 */
final class Agent {
    private Agent() {
    }

    static void start(String args, Instrumentation inst, boolean lateAttach) {
        AgentConfig config = AgentConfig.resolve(args);
        Diagnostics.setDebug(config.debug());
        Diagnostics.info("mcp-policy-agent " + version() + " on Java " + System.getProperty("java.version")
                + (lateAttach ? " (attached to a running JVM)" : ""));
        for (String problem : config.problems()) {
            Diagnostics.warn("configuration: " + problem);
        }

        Path workingDirectory = Paths.get("").toAbsolutePath();
        Path mainJarDirectory = mainJarDirectory();
        PolicyHolder policy = PolicyHolder.loading(config.failOpen());
        // read when the first MCP class appears: a JVM without MCP never pays for Jackson and the engine
        PolicyLoader loader = new PolicyLoader(policy, config.policyPath(workingDirectory, mainJarDirectory),
                config.defaultPolicySearch(workingDirectory, mainJarDirectory), config.failOpen());
        String audit = config.audit();
        Diagnostics.info("on_error=" + config.onError() + " log=" + config.log().name().toLowerCase(java.util.Locale.ROOT)
                + " audit=" + (audit == null ? "off" : workingDirectory.resolve(audit).normalize())
                + " reload=" + (config.reload() ? "requested (not available in this version; the policy is read once)" : "false")
                + " serialize_stdio=" + config.serializeStdio());

        DecisionLog log = DecisionLog.configured(config.log(), audit == null ? null : workingDirectory.resolve(audit),
                config.logArguments());
        LazyInstaller installer = new LazyInstaller(policy, log, loader, config.serializeStdio());
        inst.addTransformer(installer, true);
        if (lateAttach) {
            if (installer.activate() != null) {
                LazyInstaller.retransformLoaded(inst, HookedTypes.INTERNAL_NAMES);
            }
        } else {
            Diagnostics.info("hooks: MCP Java SDK 0.10.0 - 2.1.0 server tools/call + tools/list, client callTool + listTools,"
                    + " HTTP caller identity" + (config.serializeStdio() ? ", serialized stdio sends before 2.1.0" : "")
                    + "; the policy is read and the hooks installed when the first io.modelcontextprotocol"
                    + " class loads");
        }
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
