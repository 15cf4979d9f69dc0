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

    /**
     * Issue 16: a bundled library nested in the jar, a stored jar at the place {@code lib.index} gives, is read in place;
     * at a wrong place (a tool rewrote the jar) from memory; a broken index or a missing nested jar is a clear error.
     */
    @Test
    void readsANestedLibrarysClassesInPlaceOrFromMemoryAndNamesWhatIsBroken(@TempDir Path dir) throws Exception {
        String name = "dev.mcppolicy.agent.shaded.example.Nested";
        byte[] nested = nestedJar(name);

        AgentLoader inPlace = AgentLoader.over(jarWithNested(dir.resolve("right.jar"), nested, 0).toUri().toURL(), null);
        Class<?> read = Class.forName(name, true, inPlace);
        assertThat(read.getClassLoader()).isSameAs(inPlace);
        assertThat(read.getConstructor().newInstance().toString()).startsWith(name);
        assertThat(inPlace.readsInPlace("example")).isTrue();
        assertThatThrownBy(() -> Class.forName("dev.mcppolicy.agent.shaded.example.Missing", false, inPlace))
                .isInstanceOf(ClassNotFoundException.class);

        AgentLoader moved = AgentLoader.over(jarWithNested(dir.resolve("moved.jar"), nested, 7).toUri().toURL(), null);
        assertThat(Class.forName(name, true, moved).getClassLoader()).isSameAs(moved);
        assertThat(moved.readsInPlace("example")).isFalse();

        AgentLoader brokenIndex = withIndexOnly(dir.resolve("broken.jar"), "example 12 x dev/mcppolicy/agent/shaded/example/");
        assertThatThrownBy(() -> Class.forName(name, false, brokenIndex))
                .isInstanceOf(ClassNotFoundException.class)
                .cause().hasMessageContaining("lib.index has a line whose place is not a number: example 12 x");

        AgentLoader missing = withIndexOnly(dir.resolve("missing.jar"), "example 12 100 dev/mcppolicy/agent/shaded/example/");
        assertThatThrownBy(() -> Class.forName(name, false, missing))
                .isInstanceOf(ClassNotFoundException.class)
                .cause().hasMessageContaining("the agent jar lacks META-INF/mcp-policy/lib/example.jar");
    }

    /** A loader over an agent jar holding only a {@code lib.index} of the one line {@code line}, and no nested jar. */
    private static AgentLoader withIndexOnly(Path jar, String line) throws Exception {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, new Manifest())) {
            out.putNextEntry(new ZipEntry(AgentLoader.Libraries.INDEX));
            out.write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return AgentLoader.over(jar.toUri().toURL(), null);
    }

    /** A jar holding one deflated class, {@code name}: an empty public class made with ASM. */
    private static byte[] nestedJar(String name) throws Exception {
        org.objectweb.asm.ClassWriter writer = new org.objectweb.asm.ClassWriter(org.objectweb.asm.ClassWriter.COMPUTE_FRAMES);
        String internal = name.replace('.', '/');
        writer.visit(org.objectweb.asm.Opcodes.V17, org.objectweb.asm.Opcodes.ACC_PUBLIC, internal, null, "java/lang/Object", null);
        var init = writer.visitMethod(org.objectweb.asm.Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(org.objectweb.asm.Opcodes.ALOAD, 0);
        init.visitMethodInsn(org.objectweb.asm.Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(org.objectweb.asm.Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        writer.visitEnd();
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(bytes)) {
            out.putNextEntry(new ZipEntry(internal + ".class"));
            out.write(writer.toByteArray());
        }
        return bytes.toByteArray();
    }

    /**
     * An agent jar with {@code nested} stored in it as the library {@code example} and an index giving its place, off by
     * {@code wrongBy} bytes: the place is found by looking for the nested jar's bytes in the written file.
     */
    private static Path jarWithNested(Path jar, byte[] nested, int wrongBy) throws Exception {
        Path draft = jar.resolveSibling(jar.getFileName() + ".draft");
        for (Path target : new Path[] {draft, jar}) {
            long place = target == draft ? 0 : placeOf(Files.readAllBytes(draft), nested) + wrongBy;
            try (OutputStream file = Files.newOutputStream(target); JarOutputStream out = new JarOutputStream(file, new Manifest())) {
                put(out, AgentLoader.Libraries.DIRECTORY + "example.jar", nested, true);
                // the index last, as the build writes it: its length does not move the nested jar
                out.putNextEntry(new ZipEntry(AgentLoader.Libraries.INDEX));
                out.write(("# a test\nexample " + place + " " + nested.length + " dev/mcppolicy/agent/shaded/example/\n")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        return jar;
    }

    private static int placeOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (java.util.Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        throw new IllegalStateException("the nested jar is not in the draft");
    }

    /** Copies this build's class file {@code path} into {@code out}, stored or deflated. */
    private static void add(JarOutputStream out, String path, boolean stored) throws Exception {
        try (InputStream in = AgentLoaderTest.class.getClassLoader().getResourceAsStream(path)) {
            put(out, path, in.readAllBytes(), stored);
        }
    }

    private static void put(JarOutputStream out, String path, byte[] bytes, boolean stored) throws Exception {
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
