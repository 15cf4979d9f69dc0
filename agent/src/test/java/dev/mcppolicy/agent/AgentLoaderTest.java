package dev.mcppolicy.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.canary.CanaryTarget;
import org.junit.jupiter.api.Test;

/** The agent's own class loader over the classes this build made (the jar's contents, as a directory here). */
class AgentLoaderTest {
    private final ClassLoader agent = AgentLoader.of(AgentPremain.class);

    @Test
    void definesTheAgentsOwnClassesItself() throws Exception {
        assertThat(agent).isInstanceOf(AgentLoader.class);
        assertThat(agent.getName()).isEqualTo("mcp-policy-agent");
        Class<?> start = Class.forName("dev.mcppolicy.agent.AgentStart", false, agent);
        assertThat(start.getClassLoader()).isSameAs(agent);
        assertThat(start).isNotSameAs(AgentStart.class);
        // no permissions of its own, as on the system class loader (URLClassLoader's started java.security in premain)
        assertThat(java.util.Collections.list(start.getProtectionDomain().getPermissions().elements())).isEmpty();
        // and what those classes name (in the jar the engine and the shaded libraries too; here only this module's classes)
        Class<?> hooks = Class.forName("dev.mcppolicy.agent.sdk.McpHooks", false, agent);
        assertThat(hooks.getClassLoader()).isSameAs(agent);
        assertThat(PolicyBridge.Hooks.class.isAssignableFrom(hooks)).isTrue();
    }

    @Test
    void sharesTheBridgeTheCanaryTargetAndTheDoormanWithTheApp() throws Exception {
        assertThat(Class.forName("dev.mcppolicy.agent.bridge.PolicyBridge", false, agent)).isSameAs(PolicyBridge.class);
        assertThat(Class.forName("dev.mcppolicy.agent.bridge.PolicyBridge$Hooks", false, agent)).isSameAs(PolicyBridge.Hooks.class);
        assertThat(Class.forName("dev.mcppolicy.agent.canary.CanaryTarget", false, agent)).isSameAs(CanaryTarget.class);
        assertThat(Class.forName("dev.mcppolicy.agent.AgentPremain", false, agent)).isSameAs(AgentPremain.class);
        assertThat(Class.forName("java.lang.String", false, agent)).isSameAs(String.class);
        assertThat(Class.forName("org.junit.jupiter.api.Test", false, agent)).isSameAs(Test.class);
    }

    @Test
    void isOnePerJvm() {
        assertThat(AgentLoader.of(AgentPremain.class)).isSameAs(agent);
    }

    @Test
    void aClassOfOursThatIsNotThereIsNotLookedForElsewhere() {
        assertThatThrownBy(() -> Class.forName("dev.mcppolicy.agent.NoSuchClass", false, agent))
                .isInstanceOf(ClassNotFoundException.class);
    }
}
