package dev.mcppolicy.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.isDefaultFinalizer;
import static net.bytebuddy.matcher.ElementMatchers.named;

import dev.mcppolicy.agent.Diagnostics;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.utility.JavaModule;

/**
 * Builds the Byte Buddy transformer from the declared instrumentations. Only ever loaded once an MCP
 * class shows up (see {@code LazyInstaller}): Byte Buddy costs ~0.4 s of JVM start that a JVM without
 * MCP must not pay.
 */
public final class HookInstaller {
    private HookInstaller() {
    }

    /**
     * @param prefiltered the internal names the premain-time filter lets through; every hooked type
     *     must be among them, or its hooks would never run
     */
    public static ClassFileTransformer build(Set<String> prefiltered) {
        Set<String> missing = new TreeSet<>();
        for (TypeInstrumentation instrumentation : McpSdkModule.instrumentations()) {
            String internalName = instrumentation.typeName().replace('.', '/');
            if (!prefiltered.contains(internalName)) {
                missing.add(internalName);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("hooked types missing from HookedTypes: " + missing);
        }
        ClassLoader agentLoader = HookInstaller.class.getClassLoader();
        // Byte Buddy ignores synthetic methods by default, and the tools/call dispatch is a lambda body:
        // without this the advice silently does nothing (research/sdk-points.md §7.1).
        AgentBuilder builder = new AgentBuilder.Default(new ByteBuddy().ignore(isDefaultFinalizer()))
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(new ErrorListener());
        for (TypeInstrumentation instrumentation : McpSdkModule.instrumentations()) {
            AgentBuilder.Transformer.ForAdvice advice = new AgentBuilder.Transformer.ForAdvice().include(agentLoader);
            for (TypeInstrumentation.Hook hook : instrumentation.hooks()) {
                advice = advice.advice(hook.methods(), hook.advice().getName());
            }
            builder = builder.type(named(instrumentation.typeName()))
                    .transform(new HookCheck(instrumentation))
                    .transform(advice);
        }
        return builder.makeRaw();
    }

    /** Says what was hooked, and WARNs loudly about a hook that found no method to apply to. */
    private static final class HookCheck implements AgentBuilder.Transformer {
        private final TypeInstrumentation instrumentation;

        HookCheck(TypeInstrumentation instrumentation) {
            this.instrumentation = instrumentation;
        }

        @Override
        public DynamicType.Builder<?> transform(DynamicType.Builder<?> builder, TypeDescription type,
                ClassLoader classLoader, JavaModule module, ProtectionDomain protectionDomain) {
            List<String> applied = new ArrayList<>();
            for (TypeInstrumentation.Hook hook : instrumentation.hooks()) {
                int found = type.getDeclaredMethods().filter(hook.methods()).size();
                if (found < hook.expected()) {
                    Diagnostics.warn("NOT instrumented: " + type.getName() + " " + SdkVersion.of(protectionDomain)
                            + ": no method for " + hook.what() + " (expected the SDK " + McpSdkModule.VERSIONS
                            + " shape); these calls are NOT policed");
                } else {
                    applied.add(hook.what());
                }
            }
            if (!applied.isEmpty()) {
                Diagnostics.info("instrumented " + type.getName() + " " + SdkVersion.of(protectionDomain) + ": "
                        + String.join(", ", applied));
            }
            return builder;
        }
    }

    private static final class ErrorListener extends AgentBuilder.Listener.Adapter {
        @Override
        public void onError(String typeName, ClassLoader classLoader, JavaModule module, boolean loaded, Throwable throwable) {
            Diagnostics.adviceError("instrumenting " + typeName + " (its calls are NOT policed)", throwable);
        }
    }
}
