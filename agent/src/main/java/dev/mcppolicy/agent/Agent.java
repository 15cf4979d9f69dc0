package dev.mcppolicy.agent;

import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.agent.instrumentation.HookInstaller;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.engine.PolicyEngine;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.util.Properties;

/** Starts the agent behind the doorman: configuration, policy, startup summary, and the lazy hook installer. */
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
        Path policyPath = config.policyPath(workingDirectory, mainJarDirectory);
        PolicyHolder policy = PolicyHolder.load(policyPath, config.defaultPolicySearch(workingDirectory, mainJarDirectory),
                config.failOpen(), Clock.systemUTC());
        PolicyEngine engine = policy.engine();
        if (engine != null) {
            Diagnostics.info("policy " + policy.path() + " sha256=" + engine.policy().sha256()
                    + " mode=" + engine.policy().mode().name().toLowerCase(java.util.Locale.ROOT)
                    + " default=" + engine.policy().defaultAction().name().toLowerCase(java.util.Locale.ROOT));
        } else if (config.failOpen()) {
            Diagnostics.error("policy unavailable, every tool call will be ALLOWED unchecked (on_error=allow): "
                    + policy.unavailableDetails());
        } else {
            Diagnostics.error("policy unavailable, every tool call will be denied (on_error=deny): "
                    + policy.unavailableDetails());
        }
        String audit = config.audit();
        Diagnostics.info("on_error=" + config.onError() + " log=" + config.log().name().toLowerCase(java.util.Locale.ROOT)
                + " audit=" + (audit == null ? "off" : workingDirectory.resolve(audit).normalize())
                + " reload=" + (config.reload() ? "requested (not available in this version; the policy is read once)" : "false"));

        DecisionLog log = new DecisionLog(config.log(), audit == null ? null : workingDirectory.resolve(audit), config.logArguments());
        LazyInstaller installer = new LazyInstaller(() -> activate(inst, policy, log));
        inst.addTransformer(installer, true);
        if (lateAttach) {
            if (installer.activate() != null) {
                LazyInstaller.retransformLoaded(inst, HookedTypes.INTERNAL_NAMES);
            }
        } else {
            Diagnostics.info("hooks: MCP Java SDK 0.10.0 - 2.1.0 server tools/call + tools/list, client callTool + listTools;"
                    + " installed when the first io.modelcontextprotocol class loads");
        }
    }

    /** Runs once, when the first MCP SDK class appears: bridge on the boot class path, hooks, Byte Buddy. */
    private static LazyInstaller.Activated activate(Instrumentation inst, PolicyHolder policy, DecisionLog log) {
        long started = System.nanoTime();
        try {
            BridgeJar.appendToBootstrap(inst);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot put the policy bridge on the boot class path", e);
        }
        BridgeWiring.install(policy, log);
        java.lang.instrument.ClassFileTransformer hooks = HookInstaller.build(HookedTypes.INTERNAL_NAMES);
        LazyInstaller.Activated activated = new LazyInstaller.Activated(hooks, HookedTypes.INTERNAL_NAMES);
        Diagnostics.debug("MCP SDK seen; hooks ready in " + (System.nanoTime() - started) / 1_000_000 + " ms");
        return activated;
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
