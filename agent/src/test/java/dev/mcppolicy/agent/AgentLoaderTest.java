package dev.mcppolicy.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.canary.CanaryTarget;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void readsClassesStoredOrDeflatedStraightFromAJarWithTheManifestsPackageVersion(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("agent.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, "9.8.7-test");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest)) {
            add(out, "dev/mcppolicy/agent/AgentStart.class", true);
            add(out, "dev/mcppolicy/agent/sdk/McpHooks.class", false);
        }
        URL location = jar.toUri().toURL();
        AgentLoader loader = AgentLoader.over(location, AgentLoaderTest.class.getClassLoader());

        Class<?> stored = Class.forName("dev.mcppolicy.agent.AgentStart", false, loader);
        Class<?> deflated = Class.forName("dev.mcppolicy.agent.sdk.McpHooks", false, loader);

        assertThat(stored.getClassLoader()).isSameAs(loader);
        assertThat(deflated.getClassLoader()).isSameAs(loader);
        assertThat(stored.getPackage().getImplementationVersion()).isEqualTo("9.8.7-test");
        assertThat(stored.getProtectionDomain().getCodeSource().getLocation()).isEqualTo(location);
        assertThat(stored.getProtectionDomain()).isSameAs(deflated.getProtectionDomain());
        assertThat(java.util.Collections.list(stored.getProtectionDomain().getPermissions().elements())).isEmpty();
        // a class of ours the jar lacks is not looked for anywhere else
        assertThatThrownBy(() -> Class.forName("dev.mcppolicy.agent.Agent", false, loader))
                .isInstanceOf(ClassNotFoundException.class);
        // resources still come from the jar
        assertThat(loader.getResource("dev/mcppolicy/agent/AgentStart.class")).isNotNull();
    }

    /** Copies this build's class file {@code path} into {@code out}, stored or deflated. */
    private static void add(JarOutputStream out, String path, boolean stored) throws Exception {
        byte[] bytes;
        try (InputStream in = AgentLoaderTest.class.getClassLoader().getResourceAsStream(path)) {
            bytes = in.readAllBytes();
        }
        ZipEntry entry = new ZipEntry(path);
        if (stored) {
            CRC32 crc = new CRC32();
            crc.update(bytes);
            entry.setMethod(ZipEntry.STORED);
            entry.setSize(bytes.length);
            entry.setCompressedSize(bytes.length);
            entry.setCrc(crc.getValue());
        }
        out.putNextEntry(entry);
        out.write(bytes);
        out.closeEntry();
    }
}
