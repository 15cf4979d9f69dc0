package dev.mcppolicy.agent;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Holds the {@link PolicySnapshot} in force and nothing else: reading files is {@link PolicyReader}'s,
 * deciding is the snapshot's. A reload (a later issue) swaps in a new snapshot whole, built on the old
 * engine's rate-limit store; a call already holding the old one finishes with it.
 */
public final class PolicyHolder {
    static final long LOAD_WAIT_SECONDS = 60;

    private final AtomicReference<PolicySnapshot> current;
    private final boolean failOpen;
    private final CountDownLatch loaded = new CountDownLatch(1);

    private PolicyHolder(PolicySnapshot initial, boolean failOpen) {
        this.current = new AtomicReference<>(initial);
        this.failOpen = failOpen;
        if (initial != null) {
            loaded.countDown();
        }
    }

    /**
     * A holder whose policy is still being read (on the agent's loader thread, so that parsing does not
     * add to the app's start-up). Calls that come before {@link #completeWith} wait for it.
     */
    static PolicyHolder loading(boolean failOpen) {
        return new PolicyHolder(null, failOpen);
    }

    /** A holder of {@code snapshot}, already loaded. */
    public static PolicyHolder of(PolicySnapshot snapshot) {
        return new PolicyHolder(snapshot, snapshot.failOpen());
    }

    /** Completes a {@link #loading} holder with what {@link PolicyReader} read. */
    void completeWith(PolicySnapshot read) {
        current.set(read);
        loaded.countDown();
    }

    /** Puts {@code next} in force for every call that takes its snapshot from now on. */
    void replace(PolicySnapshot next) {
        current.set(next);
        loaded.countDown();
    }

    /**
     * The policy in force, to be taken once per call or list. Before the first load completes this
     * waits for it, at most {@value #LOAD_WAIT_SECONDS} s; then the call is answered by {@code on_error}.
     */
    public PolicySnapshot current() {
        PolicySnapshot snapshot = current.get();
        if (snapshot != null) {
            return snapshot;
        }
        try {
            if (!loaded.await(LOAD_WAIT_SECONDS, TimeUnit.SECONDS)) {
                return PolicySnapshot.unavailable("the policy is still loading after " + LOAD_WAIT_SECONDS + " s", null, null, failOpen);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return PolicySnapshot.unavailable("interrupted while waiting for the policy to load", null, null, failOpen);
        }
        return current.get();
    }

    public boolean failOpen() {
        return failOpen;
    }
}
