package dev.mcppolicy.engine;

import dev.mcppolicy.engine.internal.CompiledPolicy;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.ratelimit.RateLimitStore;
import java.time.Clock;

/**
 * Decides tool calls against one policy (SPEC §4). Thread-safe; does no I/O. Build a new engine for a
 * new policy, passing the old engine's {@link #store()} so that rate-limit counters carry over.
 */
public interface PolicyEngine {

    static PolicyEngine of(Policy policy, Clock clock) {
        return of(policy, clock, EngineOptions.withStore(RateLimitStore.inMemory(clock)));
    }

    static PolicyEngine of(Policy policy, Clock clock, EngineOptions options) {
        return new CompiledPolicy(policy, clock, options);
    }

    /**
     * Decides one call; rate-limit units are taken only when every check and every limit lets it through.
     *
     * <p>Hostile arguments (nested any number of levels deep, strings of megabytes, maps of 100,000
     * keys, numbers like {@code 1e400} as an infinity or as a {@code BigDecimal}, NaN, lone surrogates)
     * are decided like any others, in time and memory proportional to the parts of them the rule looks
     * at, and never escape as anything but a {@link Decision}. A tool's advertised input schema that
     * nests more than {@link dev.mcppolicy.schema.JsonSchema#MAX_DEPTH} levels deep, or that cannot be
     * checked in full ({@link dev.mcppolicy.schema.JsonSchema#compileLenient}), denies the call.
     *
     * <p>An exception thrown by the {@link RateLimitStore} (a shared store that cannot be reached, say)
     * is not caught here: it propagates from this method unchanged, in monitor mode too. Only a call
     * that passed every check before the limits and has a limit to count against reaches the store;
     * other calls are decided as usual. The caller answers the exception as an internal error (the
     * agent by its {@code on_error} setting).
     */
    Decision decide(ToolCall call);

    /**
     * Whether a tool appears in {@code tools/list} (SPEC §5): not hidden and not denied outright by
     * {@code action: deny} or by {@code default: deny} with no rule. Monitor mode lists everything it
     * would let through.
     *
     * @param server the upstream server's name on the client side, else {@code null}
     */
    boolean isListed(Side side, String server, String tool);

    /**
     * Whether deciding this tool needs the tool's advertised input schema ({@code "arguments":
     * "input_schema"}), so that a caller fetches it only then.
     */
    boolean needsInputSchema(Side side, String server, String tool);

    Policy policy();

    /** The rate-limit store this engine counts in. */
    RateLimitStore store();
}
