package dev.mcppolicy.agent.instrumentation;

import java.util.List;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

/** The hooks on one SDK type, matched by name only (cheap: no hierarchy walk). */
public interface TypeInstrumentation {
    String typeName();

    List<Hook> hooks();

    /**
     * One advice on the methods {@code methods} selects. {@code expected} says how many methods must
     * match in every supported version: fewer is a WARN, because a hook that silently does not apply
     * is a policy that silently does not hold.
     */
    record Hook(String what, ElementMatcher<? super MethodDescription> methods, Class<?> advice, int expected) {
    }
}
