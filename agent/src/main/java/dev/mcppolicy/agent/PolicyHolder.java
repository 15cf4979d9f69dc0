package dev.mcppolicy.agent;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Holds the {@link PolicySnapshot} in force and nothing else: reading files is {@link PolicyReader}'s,
 * deciding is the snapshot's. A reload ({@code PolicyWatcher}) swaps in a new snapshot whole, built on the old
 * engine's rate-limit store; a call already holding the old one finishes with it.
 */
public final class PolicyHolder {
    static final long LOAD_WAIT_SECONDS = 60;

    private final AtomicReference<PolicySnapshot> current;
    private final boolean failOpen;
    /**
     * Completed with the first snapshot, once read; made only when a call must wait for it (most never do), so
     * that the agent's start does not initialize {@code CompletableFuture} and the common pool in every JVM
     * (~5 ms of a cold start, issue 16). Guarded by {@code this}.
     */
    private CompletableFuture<PolicySnapshot> loaded;

    private PolicyHolder(PolicySnapshot initial, boolean failOpen) {
        this.current = new AtomicReference<>(initial);
        this.failOpen = failOpen;
    }

    /** The future of the first snapshot: complete at once when it is read already, else when {@link #completeWith} comes. */
    private synchronized CompletableFuture<PolicySnapshot> loaded() {
        if (loaded == null) {
            loaded = new CompletableFuture<>();
            // read under the lock that completeWith takes after setting it: one of the two completes the future
            PolicySnapshot now = current.get();
            if (now != null) {
                loaded.complete(now);
            }
        }
        return loaded;
    }

    private void completeLoaded(PolicySnapshot snapshot) {
        CompletableFuture<PolicySnapshot> waiting;
        synchronized (this) {
            waiting = loaded;
        }
        if (waiting != null) {
            waiting.complete(snapshot);
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
        completeLoaded(read);
    }

    /** Puts {@code next} in force for every call that takes its snapshot from now on (a reload). */
    public void replace(PolicySnapshot next) {
        current.set(next);
        completeLoaded(next);
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
            loaded().get(LOAD_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return stillLoading();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return PolicySnapshot.unavailable("interrupted while waiting for the policy to load", null, null, failOpen);
        } catch (ExecutionException e) {
            return PolicySnapshot.unavailable("the policy could not be loaded: " + e.getCause(), null, null, failOpen);
        }
        return current.get();
    }

    /**
     * The policy in force once it has been read, without blocking: for hooks that answer with a
     * {@code Mono} and must not hold a Reactor thread while the policy loads. Completes at once when
     * loaded; after {@value #LOAD_WAIT_SECONDS} s of loading, with an unavailable snapshot. A future
     * that had to wait completes on a {@code ForkJoinPool.commonPool()} thread, so what goes on from it
     * (deciding, then the SDK's handler) never runs on the agent's loader thread or holds up other
     * waiting calls.
     */
    public CompletableFuture<PolicySnapshot> whenLoaded() {
        PolicySnapshot snapshot = current.get();
        if (snapshot != null) {
            return CompletableFuture.completedFuture(snapshot);
        }
        return loaded().thenApply(first -> current.get())
                .completeOnTimeout(stillLoading(), LOAD_WAIT_SECONDS, TimeUnit.SECONDS)
                .thenApplyAsync(policy -> policy);
    }

    /** Whether the first policy has been read, so {@link #current()} answers without waiting. */
    public boolean isLoaded() {
        return current.get() != null;
    }

    /** What answers a call that could not even wait for the policy: unavailable, by {@code on_error}. */
    public PolicySnapshot notYetLoaded() {
        return PolicySnapshot.unavailable("the policy is still loading", null, null, failOpen);
    }

    private PolicySnapshot stillLoading() {
        return PolicySnapshot.unavailable("the policy is still loading after " + LOAD_WAIT_SECONDS + " s", null, null, failOpen);
    }

    public boolean failOpen() {
        return failOpen;
    }
}
