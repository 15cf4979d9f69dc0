package dev.mcppolicy.engine;

import dev.mcppolicy.engine.internal.CompiledPolicy;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.ratelimit.RateLimitStore;
import java.time.Clock;
import java.util.function.BiConsumer;

/**
 * Decides tool calls against one policy (SPEC §4). Thread-safe; does no I/O of its own. Build a new
 * engine for a new policy, passing the old engine's {@link #store()} so that rate-limit counters carry
 * over. The engine's clock is the only clock: the store is told the time on every call.
 */
public interface PolicyEngine {

    /** An engine with a new in-memory {@link RateLimitStore}. */
    static PolicyEngine of(Policy policy, Clock clock) {
        return of(policy, clock, EngineOptions.withStore(RateLimitStore.inMemory()));
    }

    /** An engine on {@code options.store()}; building it calls no store method ({@link #warmUp} does). */
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
     * <p>Only a call that passed every check before the limits and has a limit to count against reaches
     * the {@link RateLimitStore}, once, with the key of each limit computed here. A store that answers
     * {@link dev.mcppolicy.ratelimit.Admission#unavailable} or throws (an {@code Exception} or a
     * {@code LinkageError}) does not escape: the call is decided by {@link EngineOptions#storeFail()},
     * denied by default (fail closed) with the pointer of the first limit it counts against and the
     * reason {@code rate limit store unavailable: <why>}.
     */
    Decision decide(ToolCall call);

    /**
     * Gets the store ready for this policy's counters ahead of their first calls
     * ({@link RateLimitStore#prepare} for each {@code session} and {@code client} counter), so that the
     * first call of each does not pay for it (for the in-memory store, the first key cache loads
     * Caffeine's classes: a tenth of a second or more on a cold JVM). Building an engine calls no store
     * method, so call this off the call path once the engine is built; deciding works the same without
     * it. Never throws: a store that fails to prepare is left to set itself up on first use, and if it
     * still cannot answer then, the calls are decided by {@link EngineOptions#storeFail()}.
     */
    default void warmUp() {
        warmUp((call, decision) -> {
        });
    }

    /**
     * {@link #warmUp()}, and then a rehearsal: made-up calls to every rule are decided on a scratch
     * engine with its own in-memory store (nothing is counted against this engine's limits), so that the
     * first real call of each tool does not pay for loading and linking the code its rule runs (RE2/J for
     * a {@code regex}, the schema checker, the key cache, the building of reasons): milliseconds per tool
     * on a cold JVM. Each rehearsed call and its decision are handed to {@code rehearsed}, which may warm its own path
     * with it (build a decision line, say) but must not act on it. Never throws.
     */
    void warmUp(BiConsumer<? super ToolCall, ? super Decision> rehearsed);

    /**
     * Whether a tool appears in {@code tools/list} (SPEC §5): not hidden and not denied outright by
     * {@code action: deny} or by {@code default: deny} with no rule. Monitor mode lists everything it
     * would let through.
     *
     * @param server the upstream server's name on the client side, else {@code null}
     */
    boolean isListed(Side side, String server, String tool);

    /**
     * Whether a tool, resource or prompt appears in its list (SPEC §5, §12): {@code tools/list},
     * {@code resources/list} and {@code resources/templates/list} (a template by its URI template, read as a
     * URI with its expressions as they are written), {@code prompts/list}.
     */
    boolean isListed(Kind kind, Side side, String server, String name);

    /**
     * Whether any rule has a {@code result} (SPEC §13). When not, a caller skips {@link #resultJudge}
     * and reads no answer: a policy without result rules costs nothing after the call.
     */
    boolean judgesResults();

    /**
     * The judge of the answer to {@code call}, which this engine allowed; {@code null} when the rule that
     * decided it has no {@code result} (a denied call has no answer to judge).
     */
    ResultJudge resultJudge(ToolCall call);

    /**
     * Whether deciding this tool needs the tool's advertised input schema ({@code "arguments":
     * "input_schema"}), so that a caller fetches it only then.
     */
    boolean needsInputSchema(Side side, String server, String tool);

    /**
     * Client side: the {@code servers} section a call to an upstream server is judged under. A section
     * keyed by how the client reached the server ({@code address}: {@code stdio:<command> <args>} or
     * {@code url:<endpoint>}, which the server cannot choose) wins over one keyed by the server's
     * self-declared {@code serverInfo.name}, so a server claiming another's name does not get its rules
     * when those are keyed by address.
     *
     * @return {@code address} when a section has that key, else {@code name}; the value to pass as
     *     {@link ToolCall#server()} and to {@link #isListed}
     */
    String serverSection(String name, String address);

    Policy policy();

    /** The rate-limit store this engine counts in. */
    RateLimitStore store();
}
