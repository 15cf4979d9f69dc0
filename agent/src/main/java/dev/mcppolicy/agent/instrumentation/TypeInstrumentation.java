package dev.mcppolicy.agent.instrumentation;

import java.util.List;

/** The hooks on one SDK type, matched by name only (cheap: no hierarchy walk). */
public interface TypeInstrumentation {
    /** The hooked class's internal name, {@code io/modelcontextprotocol/server/McpAsyncServer}. */
    String internalName();

    List<Hook> hooks();

    /** Whether loading the type is announced ({@code instrumented ...}); a miss is a WARN either way. */
    default boolean announces() {
        return true;
    }

    /** What a miss is measured against, for the WARN: {@code the SDK 0.10.0 - 2.2.0 shape}. */
    default String expectedShape() {
        return "the SDK " + McpSdkModule.VERSIONS + " shape";
    }

    /**
     * One weave on the declared methods {@code methods} selects. {@code expected} says how many places
     * (methods, or call sites for a call-site weave) must be woven in every supported version: fewer is
     * a WARN, because a hook that silently does not apply is a policy that silently does not hold. An
     * {@code expected} of 0 marks a hook some supported versions have no place for. {@code most} is the
     * most places it may take: more is a WARN too, for a hook that decides calls, since a call woven
     * twice would be decided and counted twice.
     */
    record Hook(String what, MethodShape methods, Weave weave, int expected, int most) {
        /** A hook that may be woven in any number of places (a list filter is idempotent). */
        public Hook(String what, MethodShape methods, Weave weave, int expected) {
            this(what, methods, weave, expected, Integer.MAX_VALUE);
        }
    }
}
