package dev.mcppolicy.agent.decide;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.TestHooks;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.Side;
import java.util.function.Predicate;

/**
 * A {@code tools/list} answer as the policy shows it, for every stack: without hidden and outright-denied tools, and
 * failing closed. What a list is, and how one of fewer tools is built, is the stack's ({@link Filtering}).
 */
public final class ListFilter {
    private ListFilter() {
    }

    /** How a stack builds its list of only the tools {@code keep} accepts (the same object when it keeps all). */
    @FunctionalInterface
    public interface Filtering {
        Object filter(Object list, Predicate<String> keep) throws Throwable;
    }

    /**
     * {@code list} without the tools the policy does not list on {@code side} (for {@code server}'s section, client
     * side). A fault while filtering is an advice error, then with {@code on_error=deny} a list of no tool (with
     * {@code on_error=allow} the list as it is); if even that cannot be built, the list fails.
     */
    public static Object listed(PolicySnapshot policy, Object list, Side side, String server, String where, Filtering filtering) {
        return listed(policy, list, Kind.TOOL, side, server, where, filtering);
    }

    /**
     * {@link #listed(PolicySnapshot, Object, Side, String, String, Filtering)} for a list of {@code kind}: resources
     * (and resource templates, by their URI template) or prompts (SPEC §12).
     */
    public static Object listed(PolicySnapshot policy, Object list, Kind kind, Side side, String server, String where,
            Filtering filtering) {
        try {
            return filtering.filter(list, name -> {
                if (TestHooks.FAILS_LIST_FILTER) {
                    throw TestHooks.listFilterFault();
                }
                return kind == Kind.TOOL ? policy.isListed(side, server, name) : policy.isListed(kind, side, server, name);
            });
        } catch (Throwable t) {
            Diagnostics.adviceError(where + " filter", t);
            if (policy.failOpen()) {
                return list;
            }
            try {
                return filtering.filter(list, tool -> false);
            } catch (Throwable again) {
                throw new IllegalStateException("mcp-policy could not filter " + where + " and shows no tool (on_error=deny)", t);
            }
        }
    }
}
