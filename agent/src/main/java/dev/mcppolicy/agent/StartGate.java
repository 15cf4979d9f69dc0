package dev.mcppolicy.agent;

import dev.mcppolicy.agent.status.StartupSummary;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.concurrent.CountDownLatch;

/**
 * What premain leaves behind at {@code -javaagent} time: this transformer and a daemon thread that starts the
 * agent ({@link Agent#start}: configuration, the startup summary, the {@link LazyInstaller}), so that the app's
 * {@code main} waits for none of it (about 30 ms of class loading and interpreting on a small box).
 *
 * <p>Nothing escapes it: every class the agent could weave passes through {@link #transform}, and a class the
 * agent weaves waits there until the start is done, then goes to the installer. Another MCP class wakes the
 * agent without waiting (the start thread then goes on to install the hooks). Every other class is one
 * string-prefix check, as before. Only the summary's first line is printed before {@code main}: a JVM that
 * ends within a few tens of milliseconds may end before the rest of the summary is printed. An attach that finds the agent running waits for the start too
 * ({@link #awaitStarted}).
 */
final class StartGate implements ClassFileTransformer, Runnable {
    private static volatile StartGate current;

    private final String options;
    private final Instrumentation inst;
    private final CountDownLatch started = new CountDownLatch(1);
    /** Set once, before {@link #started} opens; {@code null} when the start failed (reported then). */
    private volatile LazyInstaller installer;
    private volatile Thread starter;
    /** Whether an MCP class that is not woven came (it does not wait for the start; see {@link #wakeUp}). */
    private volatile boolean wakeRequested;

    private StartGate(String options, Instrumentation inst) {
        this.options = options;
        this.inst = inst;
    }

    /** Registers the gate and starts the agent behind it, on {@code mcp-policy-start}. */
    static void open(String options, Instrumentation inst) {
        // the one line printed before main: a JVM that ends before the start thread is done still says the agent is on
        System.err.println("[mcp-policy] " + StartupSummary.startedLine(Agent.version(), System.getProperty("java.version"), false));
        StartGate gate = new StartGate(options, inst);
        current = gate;
        inst.addTransformer(gate, true);
        Thread starter = new Thread(gate, "mcp-policy-start");
        starter.setDaemon(true);
        gate.starter = starter;
        starter.start();
    }

    @Override
    public void run() {
        try {
            installer = Agent.start(options, inst, false, null, false);
        } catch (Throwable t) {
            System.err.println("[mcp-policy] ERROR agent failed to start; MCP tool calls are NOT policed: " + t);
            t.printStackTrace(System.err);
        } finally {
            started.countDown();
        }
        LazyInstaller ready = installer;
        if (wakeRequested && ready != null) {
            // an MCP class came during the start: this thread goes on to install the hooks
            ready.activateHere();
        }
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        if (!LazyInstaller.wakesUp(className)) {
            return null;
        }
        if (Thread.currentThread() == starter) {
            // the start itself never waits for itself (it loads no MCP class; this keeps it so if one ever did)
            return null;
        }
        if (!HookedTypes.isHooked(className)) {
            // a class the agent does not weave wakes it but never waits for it
            wakeUp();
            return null;
        }
        awaitStart();
        LazyInstaller target = installer;
        return target == null ? null : target.transform(module, loader, className, classBeingRedefined, protectionDomain, classfileBuffer);
    }

    /**
     * Has the agent woken up: at once when its start is done, else by the start thread once it is. Both sides write
     * their volatile before they read the other's, so at least one of them sees the other and wakes it.
     */
    private void wakeUp() {
        wakeRequested = true;
        LazyInstaller target = installer;
        if (target != null) {
            target.activateInBackground();
        }
    }

    private void awaitStart() {
        boolean interrupted = false;
        while (true) {
            try {
                started.await();
                break;
            } catch (InterruptedException e) {
                // the class must not load unwoven: wait on, and hand the interrupt back afterwards
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits for a start under way at {@code -javaagent} time, if there is one (an attach that finds the agent running). */
    static void awaitStarted() {
        StartGate gate = current;
        if (gate != null) {
            gate.awaitStart();
        }
    }
}
