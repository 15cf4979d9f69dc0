package dev.mcppolicy.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Points where the forked-JVM tests hold or break the agent, so that what they prove (issue 10)
 * does not hang on timing: calls that arrive while the policy is being read, a policy swapped in in
 * the middle of one call, a {@code tools/list} that cannot be filtered. Each is off unless the JVM
 * is started with its system property, which no user sets (they are not configuration and not in
 * docs/configuration.md's table); the checks are {@code static final} booleans, which the JIT folds away.
 * <ul>
 * <li>{@code dev.mcppolicy.test.policy_gate=FILE}: the loader reads the policy only once FILE exists
 *     (at most 60 s), so every call before that waits for it.</li>
 * <li>{@code dev.mcppolicy.test.swap_mid_call=FILE}: the first server call puts the policy read from
 *     FILE in force right after asking the policy it started with whether it needs the tool's input
 *     schema, and before deciding.</li>
 * <li>{@code dev.mcppolicy.test.fail_list_filter=true}: filtering a {@code tools/list} throws.</li>
 * <li>{@code dev.mcppolicy.test.approval_progress_ms=N}: a call held for approval tells its client it is still
 *     waiting every N ms instead of every 10 s, so a test need not wait a client's whole request timeout.</li>
 * <li>{@code dev.mcppolicy.test.jmx_latest_ms=N}: with no MBean server in the JVM, the agent creates one and
 *     registers its bean N ms after the policy is read instead of 10 s.</li>
 * <li>{@code dev.mcppolicy.test.digest_latest_ms=N}: with no decision yet, the agent's hashes move to the JDK's
 *     SHA-256 N ms after the policy is read instead of 10 s.</li>
 * </ul>
 */
public final class TestHooks {
    private static final String GATE = System.getProperty("dev.mcppolicy.test.policy_gate");
    private static final String SWAP = System.getProperty("dev.mcppolicy.test.swap_mid_call");
    static final boolean GATED = GATE != null;
    public static final boolean SWAPS_MID_CALL = SWAP != null;
    public static final boolean FAILS_LIST_FILTER = Boolean.getBoolean("dev.mcppolicy.test.fail_list_filter");
    /** The progress period of a held call, in ms; 0: the product's own. */
    public static final long APPROVAL_PROGRESS_MS = Long.getLong("dev.mcppolicy.test.approval_progress_ms", 0L);
    /** How long the agent waits for someone else's MBean server before it creates one, in ms; 0: the product's own. */
    public static final long JMX_LATEST_MS = Long.getLong("dev.mcppolicy.test.jmx_latest_ms", 0L);
    /** How long the agent's hashes wait for the app's first decision before they move to the JDK's SHA-256, in ms; 0: the product's own. */
    public static final long DIGEST_LATEST_MS = Long.getLong("dev.mcppolicy.test.digest_latest_ms", 0L);
    private static final AtomicBoolean swapped = new AtomicBoolean();

    private TestHooks() {
    }

    /** Holds the loader until the gate file exists, polling: a test hook, never on a call's path. */
    static void awaitGate() throws InterruptedException {
        Path gate = Path.of(GATE);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(gate) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    /** Swaps in the policy of {@code dev.mcppolicy.test.swap_mid_call}, the first time only. */
    public static void midCall(PolicyHolder holder) {
        if (swapped.compareAndSet(false, true)) {
            holder.replace(PolicyReader.read(Path.of(SWAP), SWAP, holder.failOpen(), Clock.systemUTC()));
        }
    }

    /** What a {@code tools/list} filter throws under {@code dev.mcppolicy.test.fail_list_filter}. */
    public static IllegalStateException listFilterFault() {
        return new IllegalStateException("test hook: dev.mcppolicy.test.fail_list_filter");
    }
}
