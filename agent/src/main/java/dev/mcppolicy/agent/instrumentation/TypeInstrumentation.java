package dev.mcppolicy.agent.instrumentation;

import java.util.List;

/** The hooks on one SDK type, matched by name only (cheap: no hierarchy walk). */
public interface TypeInstrumentation {
    /** The hooked class's internal name, {@code io/modelcontextprotocol/server/McpAsyncServer}. */
    String internalName();

    List<Hook> hooks();

    /**
     * One weave on the declared methods {@code methods} selects. {@code expected} says how many methods
     * must match in every supported version: fewer is a WARN, because a hook that silently does not
     * apply is a policy that silently does not hold.
     */
    record Hook(String what, MethodShape methods, Weave weave, int expected) {
    }
}
