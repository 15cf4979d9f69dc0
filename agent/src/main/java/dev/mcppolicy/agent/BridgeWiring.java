package dev.mcppolicy.agent;

import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.instrumentation.HookInstaller;
import dev.mcppolicy.agent.instrumentation.HookTransformer;
import dev.mcppolicy.agent.instrumentation.TypeInstrumentation;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.langchain4j.LangChain4jHooks;
import dev.mcppolicy.agent.kotlin.KotlinHooks;
import dev.mcppolicy.agent.modern.ModernHooks;
import dev.mcppolicy.agent.quarkus.QuarkusHooks;
import dev.mcppolicy.agent.sdk.McpHooks;
import java.util.List;

/**
 * Plugs the hooks into the bridge. Woven code finds the bridge through the system class loader (see
 * {@code Weave}), so the bridge this agent fills must be that one: with {@code -javaagent:} and with
 * dynamic attach the agent jar is on the system class path, and anything else is refused loudly
 * rather than leaving woven code calling an empty bridge.
 */
final class BridgeWiring {
    private BridgeWiring() {
    }

    /** {@code approvals}: where calls that need approval are held ({@code null}: {@code admin} is off, they are denied). */
    static HookTransformer.Deferred install(PolicyHolder policy, DecisionLog log, Approvals approvals, boolean showArguments) {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        if (PolicyBridge.class.getClassLoader() != system) {
            throw new IllegalStateException("the agent's classes are not on the system class loader (" + system
                    + ") but on " + PolicyBridge.class.getClassLoader() + "; woven code could not reach them");
        }
        ServerSections sections = new ServerSections();
        PolicyBridge.install(new McpHooks(policy, log, approvals, showArguments, sections));
        PolicyBridge.installLangChain4j(new LangChain4jHooks(policy, log, sections));
        PolicyBridge.installModern(new ModernHooks(policy, log, approvals, showArguments, sections));
        return new Stacks(policy, log, approvals, showArguments, sections);
    }

    /**
     * The stacks set up when their first hooked class loads ({@link HookInstaller#DEFERRED}): their hooks plugged into
     * the bridge, then their instrumentations. Until then none of their classes is loaded.
     */
    private static final class Stacks implements HookTransformer.Deferred {
        private final PolicyHolder policy;
        private final DecisionLog log;
        private final Approvals approvals;
        private final boolean showArguments;
        private final ServerSections sections;

        Stacks(PolicyHolder policy, DecisionLog log, Approvals approvals, boolean showArguments, ServerSections sections) {
            this.policy = policy;
            this.log = log;
            this.approvals = approvals;
            this.showArguments = showArguments;
            this.sections = sections;
        }

        @Override
        public List<TypeInstrumentation> load(String stack) {
            if (HookInstaller.QUARKUS.equals(stack)) {
                PolicyBridge.installQuarkus(new QuarkusHooks(policy, log, approvals, showArguments));
            } else if (HookInstaller.KOTLIN.equals(stack)) {
                PolicyBridge.installKotlin(new KotlinHooks(policy, log, approvals, showArguments, sections));
            }
            return HookInstaller.instrumentations(stack);
        }
    }
}
