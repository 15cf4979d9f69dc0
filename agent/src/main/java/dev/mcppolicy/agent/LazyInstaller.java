package dev.mcppolicy.agent;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import dev.mcppolicy.agent.canary.Canary;
import dev.mcppolicy.agent.instrumentation.HookInstaller;
import dev.mcppolicy.agent.instrumentation.HookTransformer;
import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.status.StartupSummary;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The only transformer registered at premain: a string-prefix check per loaded class and nothing
 * else, so a JVM without the MCP SDK pays almost nothing (its policy is not even read). The first
 * {@code io/modelcontextprotocol/} class (or Spring AI's {@code org/springframework/ai/mcp/}, whose 2.x
 * transports are hooked too; or a {@code dev/langchain4j/mcp/} class, of LangChain4j's own MCP client) wakes it
 * up: it starts reading the policy, then builds the real (ASM) transformer, on a thread of its own when that
 * class is not one it weaves, and hands the real transformer exactly the classes it hooks; a hooked class
 * waits for the install. It does so once: an install that fails is reported once, and MCP calls are then not policed
 * (later MCP classes do not try again, each with its own stack trace).
 */
final class LazyInstaller implements ClassFileTransformer {
    static final String SDK_PREFIX = "io/modelcontextprotocol/";
    static final String SPRING_AI_PREFIX = "org/springframework/ai/mcp/";
    /** LangChain4j's own MCP client, which does not use the SDK: its classes wake the agent too. */
    static final String LANGCHAIN4J_PREFIX = "dev/langchain4j/mcp/";
    /** The Quarkus MCP server, which does not use the SDK: its classes wake the agent too. */
    static final String QUARKUS_PREFIX = "io/quarkiverse/mcp/";

    private final PolicyHolder policy;
    /** Builds the decision log at install: a JVM without MCP never loads it. */
    private final Supplier<DecisionLog> log;
    private final Approvals approvals;
    private final boolean showArguments;
    private final Thread policyLoader;
    private final boolean serializeStdio;
    private final StartupSummary summary;
    /** The weaving transformer once installed; {@code null} before, or after a failed install. */
    private volatile ClassFileTransformer active;
    /** Set when the install starts, never cleared: it is tried once. Guarded by {@code this}. */
    private boolean attempted;
    /** Whether a wake-up without waiting was asked for ({@link #activateInBackground}, {@link #activateHere}): at most one runs. */
    private final AtomicBoolean wakeAsked = new AtomicBoolean();
    /**
     * Whether the canary runs once the first class the agent weaves has been through the weaving (at {@code -javaagent}
     * time), rather than right after the install (attach, where the SDK's classes are woven at once anyway).
     */
    private final boolean canaryAfterFirstWeave;
    /** Set when the canary is started: it runs once. */
    private final AtomicBoolean canaryStarted = new AtomicBoolean();

    LazyInstaller(PolicyHolder policy, Supplier<DecisionLog> log, Thread policyLoader, boolean serializeStdio, StartupSummary summary,
            Approvals approvals, boolean showArguments, boolean canaryAfterFirstWeave) {
        this.canaryAfterFirstWeave = canaryAfterFirstWeave;
        this.approvals = approvals;
        this.showArguments = showArguments;
        this.policy = policy;
        this.log = log;
        this.policyLoader = policyLoader;
        this.serializeStdio = serializeStdio;
        this.summary = summary;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        if (!wakesUp(className)) {
            return null;
        }
        if (!HookedTypes.isHooked(className)) {
            // nothing to weave here: the install goes on beside the app, which waits only for a class it must weave
            activateInBackground();
            return null;
        }
        ClassFileTransformer current = active != null ? active : activate();
        if (current == null) {
            return null;
        }
        try {
            return current.transform(module, loader, className, classBeingRedefined, protectionDomain, classfileBuffer);
        } catch (Throwable t) {
            Diagnostics.adviceError("instrumenting", className.replace('/', '.') + ", whose calls are NOT policed", t);
            return null;
        } finally {
            if (canaryAfterFirstWeave) {
                startCanary();
            }
        }
    }

    /**
     * Starts the canary, once. At {@code -javaagent} time that is when the first class the agent weaves has been woven:
     * the weaving's classes (ASM's among them) are loaded and run by then, so the canary's own weave costs little. Run
     * right at the install, it loaded and verified them on a thread of its own while the app was starting, which cost
     * the app ~25 ms of its time to {@code initialize} on 2 cores (issue 16); the app's first weave loads them anyway.
     */
    private void startCanary() {
        if (canaryStarted.compareAndSet(false, true)) {
            Canary.start(summary);
        }
    }

    /**
     * Whether a class of this name wakes the agent: the SDK's (its Kotlin SDK too), Spring AI's MCP, LangChain4j's MCP
     * client, the Quarkus MCP server and the canary.
     */
    static boolean wakesUp(String className) {
        return className != null && (className.startsWith(SDK_PREFIX) || className.startsWith(SPRING_AI_PREFIX)
                || className.startsWith(LANGCHAIN4J_PREFIX) || className.equals(HookedTypes.CANARY) || className.startsWith(QUARKUS_PREFIX));
    }

    /**
     * Wakes up on a thread of its own, {@code mcp-policy-install}, unless that was already asked for: what the first
     * MCP class that is not woven does. The app's thread goes on loading classes meanwhile (in an SDK server that
     * is most of a second of Jackson, Reactor and the SDK before the first woven class, which waits for the install
     * if it is still under way), instead of waiting ~60 ms on a small box for the hooks, the decision log and the
     * bridge to be set up (issue 16).
     */
    void activateInBackground() {
        if (active == null && wakeAsked.compareAndSet(false, true)) {
            Thread install = new Thread(new Runnable() {
                @Override
                public void run() {
                    activate();
                }
            }, "mcp-policy-install");
            install.setDaemon(true);
            install.start();
        }
    }

    /**
     * {@link #activate} on the calling thread unless a wake-up without waiting was already asked for: what the start
     * thread does when an MCP class came while it was starting the agent, so that no install thread is made later.
     */
    void activateHere() {
        if (wakeAsked.compareAndSet(false, true)) {
            activate();
        }
    }

    /**
     * Wakes up now (late attach: the SDK may already be loaded), unless it already tried. Another thread
     * waits for an install under way; the installing thread itself (classes the install loads) and
     * everyone after a failed install get {@code null}.
     */
    ClassFileTransformer activate() {
        synchronized (this) {
            if (attempted) {
                return active;
            }
            attempted = true;
            try {
                active = install();
                if (!canaryAfterFirstWeave) {
                    startCanary();
                }
            } catch (Throwable t) {
                summary.hooksFailed(t);
            }
            return active;
        }
    }

    /** The policy being read (tool calls wait for it), hooks plugged into the bridge, then the weaving transformer. */
    private ClassFileTransformer install() {
        long started = System.nanoTime();
        if (policyLoader.getState() == Thread.State.NEW) {
            policyLoader.start();
        }
        HookTransformer.Deferred stacks = BridgeWiring.install(policy, log.get(), approvals, showArguments);
        ClassFileTransformer hooks = HookInstaller.build(HookedTypes.INTERNAL_NAMES, serializeStdio, summary, stacks);
        summary.hooksInstalled((System.nanoTime() - started) / 1_000_000);
        return hooks;
    }

    static void retransformLoaded(Instrumentation inst, Set<String> hookedTypes) {
        for (Class<?> type : inst.getAllLoadedClasses()) {
            if (hookedTypes.contains(type.getName().replace('.', '/')) && inst.isModifiableClass(type)) {
                try {
                    inst.retransformClasses(type);
                } catch (Throwable t) {
                    Diagnostics.adviceError("retransforming", type.getName() + ", whose calls are NOT policed", t);
                }
            }
        }
    }
}
