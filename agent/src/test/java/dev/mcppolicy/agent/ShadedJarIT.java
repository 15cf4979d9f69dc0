package dev.mcppolicy.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The packaged agent jar: nothing outside our package leaks onto an app's class path, and the manifest makes it an agent. */
class ShadedJarIT {
    private static JarFile jar() throws Exception {
        return new JarFile(Path.of(System.getProperty("agent.jar", "target/mcp-policy-agent.jar")).toFile());
    }

    @Test
    void hasNoRootEntryOutsideOurPackageAndMetaInf() throws Exception {
        List<String> strays = new ArrayList<>();
        try (JarFile jar = jar()) {
            for (var entry : Collections.list(jar.entries())) {
                String name = entry.getName();
                if (!name.startsWith("META-INF/") && !name.startsWith("dev/mcppolicy/") && !name.equals("dev/")) {
                    strays.add(name);
                }
                if (name.startsWith("META-INF/versions/") && name.endsWith(".class")) {
                    String inner = name.replaceFirst("^META-INF/versions/\\d+/", "");
                    if (!inner.startsWith("dev/mcppolicy/")) {
                        strays.add(name);
                    }
                }
            }
        }
        assertThat(strays).isEmpty();
    }

    @Test
    void relocatesEveryBundledLibraryUnderTheShadedPackage() throws Exception {
        try (JarFile jar = jar()) {
            assertThat(jar.getEntry("dev/mcppolicy/agent/shaded/org/objectweb/asm/ClassWriter.class")).isNotNull();
            assertThat(jar.getEntry("dev/mcppolicy/agent/shaded/com/fasterxml/jackson/core/JsonFactory.class")).isNotNull();
            assertThat(jar.getEntry("dev/mcppolicy/agent/shaded/com/github/benmanes/caffeine/cache/Caffeine.class")).isNotNull();
            assertThat(jar.getEntry("dev/mcppolicy/agent/shaded/com/google/re2j/Pattern.class")).isNotNull();
            assertThat(jar.getEntry("dev/mcppolicy/engine/PolicyEngine.class")).isNotNull();
            // byte-buddy-agent (the attach command's way in), never Byte Buddy itself: the weaves are ASM
            assertThat(jar.getEntry("dev/mcppolicy/agent/shaded/net/bytebuddy/agent/ByteBuddyAgent.class")).isNotNull();
            assertThat(jar.stream().map(JarEntry::getName).filter(name -> name.contains("bytebuddy")
                    && !name.startsWith("dev/mcppolicy/agent/shaded/net/bytebuddy/agent/")
                    && !name.equals("dev/mcppolicy/agent/shaded/net/bytebuddy/")
                    && !name.startsWith("META-INF/maven/net.bytebuddy/byte-buddy-agent/")
                    && !name.equals("META-INF/maven/net.bytebuddy/"))).isEmpty();
        }
    }

    @Test
    void declaresItselfAnAgentWithTheCliAsMain() throws Exception {
        try (JarFile jar = jar()) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertThat(main.getValue("Premain-Class")).isEqualTo(AgentPremain.class.getName());
            assertThat(main.getValue("Agent-Class")).isEqualTo(AgentPremain.class.getName());
            assertThat(main.getValue("Main-Class")).isEqualTo(AgentMain.class.getName());
            assertThat(main.getValue("Can-Retransform-Classes")).isEqualTo("true");
            assertThat(main.getValue("Can-Redefine-Classes")).isEqualTo("true");
        }
    }

    /** Issue 16: what a cold start loads is stored, not deflated; the libraries loaded only when configured stay deflated. */
    @Test
    void storesTheClassesAColdStartLoadsAndDeflatesTheRest() throws Exception {
        try (JarFile jar = jar()) {
            assertThat(jar.getManifest()).isNotNull();
            List<String> deflatedStartClasses = new ArrayList<>();
            List<String> storedLibraryClasses = new ArrayList<>();
            for (var entry : Collections.list(jar.entries())) {
                String name = entry.getName();
                if (!name.endsWith(".class")) {
                    continue;
                }
                boolean startClass = !name.startsWith("dev/mcppolicy/agent/shaded/")
                        || name.startsWith("dev/mcppolicy/agent/shaded/org/objectweb/asm/");
                boolean stored = entry.getMethod() == java.util.zip.ZipEntry.STORED;
                if (startClass && !stored) {
                    deflatedStartClasses.add(name);
                } else if (!startClass && stored) {
                    storedLibraryClasses.add(name);
                }
            }
            assertThat(deflatedStartClasses).isEmpty();
            assertThat(storedLibraryClasses).isEmpty();
            assertThat(jar.getEntry("dev/mcppolicy/agent/AgentPremain.class").getMethod()).isEqualTo(java.util.zip.ZipEntry.STORED);
            assertThat(jar.getEntry("dev/mcppolicy/agent/shaded/com/fasterxml/jackson/core/JsonFactory.class").getMethod())
                    .isEqualTo(java.util.zip.ZipEntry.DEFLATED);
        }
    }

    /**
     * Issue 16: the weaving's ASM is shipped as Java 8 class files with stack map frames (src/build/UpgradeClassFiles.java),
     * which the JVM checks with its type-checking verifier; ASM's own Java 5 class files go through the slow old one.
     */
    @Test
    void shipsTheWeavingsAsmAsJava8ClassFilesWithStackMapFrames() throws Exception {
        List<String> old = new ArrayList<>();
        int framed = 0;
        try (JarFile jar = jar()) {
            for (var entry : Collections.list(jar.entries())) {
                String name = entry.getName();
                if (!name.startsWith("dev/mcppolicy/agent/shaded/org/objectweb/asm/") || !name.endsWith(".class")) {
                    continue;
                }
                byte[] bytes;
                try (var in = jar.getInputStream(entry)) {
                    bytes = in.readAllBytes();
                }
                int major = ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff);
                if (major < 52) {
                    old.add(name + " (" + major + ")");
                }
                if (new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).contains("StackMapTable")) {
                    framed++;
                }
            }
        }
        assertThat(old).isEmpty();
        assertThat(framed).as("the classes with branches carry frames (ClassReader, ClassWriter, MethodWriter...)").isGreaterThan(10);
    }
}
