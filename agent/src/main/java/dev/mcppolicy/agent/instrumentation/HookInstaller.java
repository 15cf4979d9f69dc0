package dev.mcppolicy.agent.instrumentation;

import dev.mcppolicy.agent.canary.Canary;
import dev.mcppolicy.agent.status.StartupSummary;
import java.lang.instrument.ClassFileTransformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    public static ClassFileTransformer build(Set<String> prefiltered, boolean serializeStdio, StartupSummary summary,
            HookTransformer.Deferred stacks) {
        List<TypeInstrumentation> all = new ArrayList<>(McpSdkModule.instrumentations(serializeStdio));
        all.addAll(ModernSdkModule.instrumentations());
        all.addAll(LangChain4jModule.instrumentations());
        Set<String> missing = new TreeSet<>();
        for (TypeInstrumentation instrumentation : all) {
            if (!prefiltered.contains(instrumentation.internalName())) {
                missing.add(instrumentation.internalName());
            }
        }
        for (String deferred : DEFERRED.keySet()) {
            if (!prefiltered.contains(deferred)) {
                missing.add(deferred);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("hooked types missing from HookedTypes: " + missing);
        }
        all.add(Canary.instrumentation());
        return new HookTransformer(all, DEFERRED, stacks, summary);
    }

    /** The stack of the Quarkus MCP server ({@link QuarkusMcpModule}), set up when its first hooked class loads. */
    public static final String QUARKUS = "quarkus";
    /** The stack of the Kotlin MCP SDK ({@link KotlinSdkModule}), set up when its first hooked class loads. */
    public static final String KOTLIN = "kotlin";

    /**
     * The hooked classes of the stacks set up only on first sight (the ones the agent's first releases did not have:
     * a JVM without them loads none of their classes), by stack; {@code McpSdkModuleTest} checks them against the
     * modules' instrumentations.
     */
    public static final Map<String, String> DEFERRED = Map.of(
            "io/quarkiverse/mcp/server/runtime/ToolMessageHandler", QUARKUS,
            "io/quarkiverse/mcp/server/runtime/ResourceMessageHandler", QUARKUS,
            "io/quarkiverse/mcp/server/runtime/ResourceTemplateMessageHandler", QUARKUS,
            "io/quarkiverse/mcp/server/runtime/PromptMessageHandler", QUARKUS,
            // loaded first of them all, as the managers start
            "io/quarkiverse/mcp/server/runtime/FeatureManagerBase", QUARKUS,
            "io/modelcontextprotocol/kotlin/sdk/server/Server", KOTLIN,
            "io/modelcontextprotocol/kotlin/sdk/client/Client", KOTLIN);

    /** A deferred stack's instrumentations. */
    public static List<TypeInstrumentation> instrumentations(String stack) {
        switch (stack) {
            case QUARKUS:
                return QuarkusMcpModule.instrumentations();
            case KOTLIN:
                return KotlinSdkModule.instrumentations();
            default:
                throw new IllegalArgumentException("no stack " + stack);
        }
    }
}
