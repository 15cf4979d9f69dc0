package dev.mcppolicy.agent.instrumentation;

import dev.mcppolicy.agent.canary.Canary;
import dev.mcppolicy.agent.status.StartupSummary;
import java.lang.instrument.ClassFileTransformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Builds the transformer from the declared instrumentations. Only ever loaded once an MCP class shows
 * up (see {@code LazyInstaller}), so a JVM without MCP loads no bytecode library at all.
 */
public final class HookInstaller {
    private HookInstaller() {
    }

    /**
     * @param prefiltered the internal names the premain-time filter lets through; every hooked type
     *     must be among them, or its hooks would never run
     * @param serializeStdio see {@link McpSdkModule#instrumentations(boolean)}
     * @param summary told what each woven class got
     */
    public static ClassFileTransformer build(Set<String> prefiltered, boolean serializeStdio, StartupSummary summary) {
        List<TypeInstrumentation> all = new ArrayList<>(McpSdkModule.instrumentations(serializeStdio));
        all.addAll(ModernSdkModule.instrumentations());
        all.addAll(LangChain4jModule.instrumentations());
        all.addAll(QuarkusMcpModule.instrumentations());
        all.addAll(KotlinSdkModule.instrumentations());
        Set<String> missing = new TreeSet<>();
        for (TypeInstrumentation instrumentation : all) {
            if (!prefiltered.contains(instrumentation.internalName())) {
                missing.add(instrumentation.internalName());
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("hooked types missing from HookedTypes: " + missing);
        }
        all.add(Canary.instrumentation());
        return new HookTransformer(all, summary);
    }
}
