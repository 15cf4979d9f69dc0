package dev.mcppolicy.agent.log;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.TestHooks;
import dev.mcppolicy.json.CanonicalJson;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * When the agent's hashes (the decision line's {@code args_sha256}, the policy's {@code sha256}) move from
 * {@link CanonicalJson}'s own SHA-256, which an agent started with the JVM hashes with while the app starts, to the
 * JDK's: once the app serves, at its first decision, or at the latest {@value #LATEST_MILLIS} ms after the policy
 * was read. The JDK's first digest starts the security providers and links the JDK's byte-array
 * {@code VarHandle}s, ~20 ms of CPU (issue 16), which the app's start-up no longer pays for on a small box; once
 * warm, the JDK's is ~10 times as fast per hash, with the CPU's SHA instructions. The hashes are the same either way.
 */
public final class DigestSwitch {
    static final long LATEST_MILLIS = 10_000;
    private static final CountDownLatch SERVED = new CountDownLatch(1);

    private DigestSwitch() {
    }

    /** A decision was made: the app serves. One volatile read once that is known. */
    static void served() {
        if (SERVED.getCount() != 0) {
            SERVED.countDown();
        }
    }

    /**
     * On the policy loader's thread, after its work: waits until the app serves, then makes the JDK's digest ready
     * here and has every thread hash with it from its next hash on. Returns at once when hashes already use it (an
     * agent attached to a running app).
     */
    public static void switchWhenServed() {
        if (!CanonicalJson.hashesWithOwnDigest()) {
            return;
        }
        boolean served = false;
        try {
            served = SERVED.await(TestHooks.DIGEST_LATEST_MS > 0 ? TestHooks.DIGEST_LATEST_MS : LATEST_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (CanonicalJson.useJdkDigest()) {
            Diagnostics.debug("hashes: the JDK's SHA-256 from now on (" + (served ? "the app made its first decision" : "no decision yet") + ")");
        } else {
            Diagnostics.debug("hashes: the JDK offers no SHA-256 digest; they stay with the agent's own");
        }
    }
}
