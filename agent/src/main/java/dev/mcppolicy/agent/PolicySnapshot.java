package dev.mcppolicy.agent;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.EngineOptions;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.engine.ResultJudge;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.policy.Approval;
import dev.mcppolicy.policy.ToolRule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The policy in force for one call or one {@code tools/list}: an engine, or "unavailable" with why, and
 * what {@code on_error} says to do then. Immutable; a hook takes one from {@link PolicyHolder#current()}
 * and asks it everything it needs ({@link #needsInputSchema}, then {@link #decide}; {@link #isListed}
 * for every tool of one list), so one call or one list is never judged by two policies, whatever a
 * reload swaps in meanwhile. Never throws.
 */
public final class PolicySnapshot {
    static final String APPROVAL_UNAVAILABLE = "approval required but no approval channel is configured";

    private final PolicyEngine engine;
    private final String unavailableReason;
    private final String details;
    private final Path path;
    private final boolean failOpen;
    /** The policy file's text as it was read, or {@code null}. */
    private final String source;
    /** The store and {@code store_fail} this snapshot's engine was built on, for the next version of the file; {@code null}: the defaults. */
    private EngineOptions options;

    private PolicySnapshot(PolicyEngine engine, String unavailableReason, String details, Path path, boolean failOpen, String source) {
        this.engine = engine;
        this.source = source;
        this.unavailableReason = unavailableReason;
        this.details = details;
        this.path = path;
        this.failOpen = failOpen;
    }

    static PolicySnapshot of(PolicyEngine engine, Path path, boolean failOpen) {
        return of(engine, path, failOpen, null);
    }

    /** @param source the file's text, as read (what the admin page shows as the policy in force) */
    static PolicySnapshot of(PolicyEngine engine, Path path, boolean failOpen, String source) {
        return new PolicySnapshot(engine, null, null, path, failOpen, source);
    }

    /**
     * @param reason one line, for the caller and the decision log
     * @param details the full account (every parse error) for the startup output, or {@code null}
     */
    static PolicySnapshot unavailable(String reason, String details, Path path, boolean failOpen) {
        return new PolicySnapshot(null, reason, details, path, failOpen, null);
    }

    /** This snapshot with {@code engineOptions} recorded for the reloads that follow it. */
    PolicySnapshot withOptions(EngineOptions engineOptions) {
        PolicySnapshot copy = new PolicySnapshot(engine, unavailableReason, details, path, failOpen, source);
        copy.options = engineOptions;
        return copy;
    }

    /**
     * The options to build the next version of the policy on: the ones recorded, else the engine's
     * store with the defaults, else {@code null} (a new in-memory store).
     */
    EngineOptions options() {
        return options != null ? options : engine != null ? EngineOptions.withStore(engine.store()) : null;
    }

    /** Decides one call; a {@code require_approval} outcome is denied (no channel to ask a person through). */
    public Decision decide(ToolCall call) {
        return decide(call, false);
    }

    /**
     * Decides one call. A {@code require_approval} outcome is returned as it is when {@code canHold}
     * (an approval channel is configured: the caller holds the call), else denied (SPEC §6).
     */
    public Decision decide(ToolCall call, boolean canHold) {
        if (engine == null) {
            String text = "policy unavailable: " + unavailableReason;
            return failOpen ? Decision.errorAllowed(text) : Decision.error(text);
        }
        try {
            Decision decision = engine.decide(call);
            if (decision.effect() == Effect.REQUIRE_APPROVAL && !canHold) {
                return new Decision(Effect.DENY, Effect.DENY, decision.rule(), APPROVAL_UNAVAILABLE, 0);
            }
            return decision;
        } catch (RuntimeException | LinkageError e) {
            return internalError("policy engine deciding", call.tool(), e);
        }
    }

    /**
     * An agent bug while deciding: the detail, with an id, goes to the agent's diagnostics; the caller
     * reads only the id ({@code internal error (id 3f9a0c1e); the app's log has the details}), never
     * exception text. Denied, or with {@code on_error=allow} allowed and logged as the error it is.
     */
    public Decision internalError(String where, String tool, Throwable t) {
        String id = String.format("%08x", ThreadLocalRandom.current().nextInt());
        Diagnostics.adviceError(where, "tool " + tool + ", error id " + id, t);
        String reason = "internal error (id " + id + "); the app's log has the details";
        return failOpen ? Decision.errorAllowed(reason) : Decision.error(reason);
    }

    /** Client side: the {@code servers} section key to judge a server's calls under ({@link PolicyEngine#serverSection}). */
    public String serverSection(String name, String address) {
        try {
            return engine == null ? name : engine.serverSection(name, address);
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.adviceError("policy engine finding the server section", "server " + name, e);
            return name;
        }
    }

    /** Whether the policy has a {@code servers} section: only then is a client's server worth knowing before its first call. */
    public boolean hasServerSections() {
        return engine != null && !engine.policy().servers().isEmpty();
    }

    /** Whether the policy has a {@code servers} section keyed {@code key}. */
    public boolean hasServerSection(String key) {
        return key != null && engine != null && engine.policy().servers().containsKey(key);
    }

    /** Whether a tool appears in {@code tools/list}; with no policy, only when failing open. */
    public boolean isListed(Side side, String server, String tool) {
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

    /** Whether a resource, template or prompt appears in its list (SPEC §12); with no policy, only when failing open. */
    public boolean isListed(Kind kind, Side side, String server, String name) {
        if (engine == null) {
            return failOpen;
        }
        try {
            return engine.isListed(kind, side, server, name);
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.adviceError("policy engine listing", kind.word() + " " + name, e);
            return failOpen;
        }
    }

    /**
     * The judge of the answer to {@code call}, which this snapshot allowed (SPEC §13), or {@code null} when its rule
     * has no {@code result}: the answer then goes to the caller untouched and unread. A fault finding the judge is an
     * advice error, then a judge that denies every answer (or, with {@code on_error=allow}, none).
     */
    public ResultJudge resultJudge(ToolCall call) {
        if (engine == null || !engine.judgesResults()) {
            return null;
        }
        try {
            return engine.resultJudge(call);
        } catch (RuntimeException | LinkageError e) {
            Decision error = internalError("policy engine finding the result rule", call.tool(), e);
            if (error.effect() == Effect.ALLOW) {
                return null;
            }
            return new ResultJudge() {
                @Override
                public String pointer() {
                    return error.rule();
                }

                @Override
                public Verdict judge(Answer answer) {
                    return new Verdict(error, answer.texts(), answer.structured(), null);
                }
            };
        }
    }

    /** Whether deciding this tool needs its advertised input schema. */
    public boolean needsInputSchema(Side side, String server, String tool) {
        try {
            return engine != null && engine.needsInputSchema(side, server, tool);
        } catch (RuntimeException | LinkageError e) {
            // decide() meets the same fault and answers it by on_error
            Diagnostics.adviceError("policy engine checking", "tool " + tool, e);
            return false;
        }
    }

    /**
     * How long a call held by the rule at {@code pointer} waits for approval: the rule's
     * {@code approval.timeout}, or the default 5 minutes.
     */
    public Duration approvalTimeout(String pointer) {
        Approval approval = approvalAt(pointer);
        return approval == null ? Approval.DEFAULT_TIMEOUT : approval.timeout();
    }

    /**
     * Through which channel a call held by the rule at {@code pointer} is asked: the rule's {@code approval.via},
     * or the admin channel.
     */
    public Approval.Via approvalVia(String pointer) {
        Approval approval = approvalAt(pointer);
        return approval == null ? Approval.Via.ADMIN : approval.via();
    }

    private Approval approvalAt(String pointer) {
        ToolRule rule = engine == null ? null : engine.policy().ruleAt(pointer);
        return rule == null ? null : rule.approval();
    }

    /** The SHA-256 of the policy in force, or {@code null}. */
    public String sha256() {
        return engine == null ? null : engine.policy().sha256();
    }

    /** The engine, or {@code null} when the policy is unavailable. */
    public PolicyEngine engine() {
        return engine;
    }

    /** The full account of why the policy is unavailable (every parse error), for the startup output. */
    public String unavailableDetails() {
        return details != null ? details : unavailableReason;
    }

    /** The policy file's text, exactly as read (its SHA-256 is the policy's), or {@code null} when not read from a file. */
    public String source() {
        return source;
    }

    /** Whether the policy names a key source for the callers' tokens ({@code identity.jwt}, issue 32). */
    public boolean namesKeySource() {
        return engine != null && engine.policy().identity().isSet();
    }

    public Path path() {
        return path;
    }

    public boolean failOpen() {
        return failOpen;
    }
}
