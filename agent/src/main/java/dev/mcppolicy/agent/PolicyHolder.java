package dev.mcppolicy.agent;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.PolicyParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The engine currently in force, swappable as a whole (reload, a later issue, builds a new engine
 * with the old {@link PolicyEngine#store()} and swaps it in). When no policy could be loaded it
 * answers every call by {@code on_error}: denied (fail closed, the default) or allowed and logged as
 * an error (fail open).
 */
public final class PolicyHolder {
    static final String APPROVAL_UNAVAILABLE = "approval required but no approval channel is configured";

    static final long LOAD_WAIT_SECONDS = 60;

    private final AtomicReference<State> state;
    private final boolean failOpen;
    private final CountDownLatch loaded = new CountDownLatch(1);

    private PolicyHolder(State initial, boolean failOpen) {
        this.state = new AtomicReference<>(initial);
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

    /** Completes a {@link #loading} holder with what {@link #load} read. */
    void completeWith(PolicyHolder read) {
        state.set(read.current());
        loaded.countDown();
    }

    private State current() {
        State current = state.get();
        if (current != null) {
            return current;
        }
        try {
            if (!loaded.await(LOAD_WAIT_SECONDS, TimeUnit.SECONDS)) {
                return State.unavailable("the policy is still loading after " + LOAD_WAIT_SECONDS + " s", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return State.unavailable("interrupted while waiting for the policy to load", null);
        }
        return state.get();
    }

    /** Loads the policy at {@code path}; never throws: a missing or invalid file leaves the holder unavailable. */
    public static PolicyHolder load(Path path, String searched, boolean failOpen, Clock clock) {
        if (path == null) {
            return new PolicyHolder(State.unavailable("no policy file found (looked for " + searched + ")", null), failOpen);
        }
        if (!Files.isRegularFile(path)) {
            return new PolicyHolder(State.unavailable("policy file not found: " + path, path), failOpen);
        }
        try {
            Policy policy = PolicyParser.parse(path);
            PolicyEngine engine = PolicyEngine.of(policy, clock);
            engine.warmUp();
            return new PolicyHolder(new State(engine, null, path, null), failOpen);
        } catch (PolicyException e) {
            int count = e.errors().size();
            String reason = "invalid policy " + path.getFileName() + " (" + count + (count == 1 ? " error" : " errors")
                    + ", listed in the agent's startup output)";
            return new PolicyHolder(new State(null, reason, path, e.getMessage()), failOpen);
        } catch (RuntimeException | LinkageError e) {
            return new PolicyHolder(State.unavailable("cannot read policy " + path + ": " + e, path), failOpen);
        }
    }

    /** Decides one call; never throws. */
    public Decision decide(ToolCall call) {
        State current = current();
        if (current.engine == null) {
            return unavailable(current.unavailableReason);
        }
        try {
            Decision decision = current.engine.decide(call);
            if (decision.effect() == Effect.REQUIRE_APPROVAL) {
                // Approvals (SPEC §6) come with a later issue; until there is a channel, approval means no.
                return new Decision(Effect.DENY, Effect.DENY, decision.rule(), APPROVAL_UNAVAILABLE, 0);
            }
            return decision;
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.adviceError("policy engine deciding", "tool " + call.tool(), e);
            return failOpen ? Decision.errorAllowed("internal error: " + e) : Decision.error("internal error: " + e);
        }
    }

    /** Whether a tool appears in {@code tools/list}; with no policy, only when failing open. */
    public boolean isListed(Side side, String server, String tool) {
        PolicyEngine engine = current().engine;
        if (engine == null) {
            return failOpen;
        }
        try {
            return engine.isListed(side, server, tool);
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.adviceError("policy engine listing", "tool " + tool, e);
            return failOpen;
        }
    }

    /** Whether deciding this tool needs its advertised input schema; never throws. */
    public boolean needsInputSchema(Side side, String server, String tool) {
        PolicyEngine engine = current().engine;
        try {
            return engine != null && engine.needsInputSchema(side, server, tool);
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.adviceError("policy engine checking", "tool " + tool, e);
            return false;
        }
    }

    private Decision unavailable(String reason) {
        String text = "policy unavailable: " + reason;
        return failOpen ? Decision.errorAllowed(text) : Decision.error(text);
    }

    public PolicyEngine engine() {
        return current().engine;
    }

    public String unavailableReason() {
        return current().unavailableReason;
    }

    /** The full account of why the policy is unavailable (every parse error), for the startup output. */
    public String unavailableDetails() {
        State current = current();
        return current.details != null ? current.details : current.unavailableReason;
    }

    public Path path() {
        return current().path;
    }

    public boolean failOpen() {
        return failOpen;
    }

    private static final class State {
        final PolicyEngine engine;
        final String unavailableReason;
        final Path path;
        final String details;

        State(PolicyEngine engine, String unavailableReason, Path path, String details) {
            this.engine = engine;
            this.unavailableReason = unavailableReason;
            this.path = path;
            this.details = details;
        }

        static State unavailable(String reason, Path path) {
            return new State(null, reason, path, null);
        }
    }
}
