package dev.mcppolicy.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The packaged agent jar: nothing outside our package leaks onto an app's class path, and the manifest makes it an agent. */
class ShadedJarIT {
    /** The repository's notices, which the jar must carry as they are. */
    private static final Path NOTICES = Path.of("../THIRD-PARTY-NOTICES");

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
                if (name.startsWith(AgentLoader.Libraries.DIRECTORY)) {
                    for (String inner : nested(jar, name.substring(AgentLoader.Libraries.DIRECTORY.length(), name.length() - 4))) {
                        if (!inner.startsWith("dev/mcppolicy/agent/shaded/")) {
                            strays.add(name + "!/" + inner);
                        }
                    }
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
            assertThat(nested(jar, "jackson")).contains("dev/mcppolicy/agent/shaded/com/fasterxml/jackson/core/JsonFactory.class");
            assertThat(nested(jar, "yaml")).contains("dev/mcppolicy/agent/shaded/org/yaml/snakeyaml/Yaml.class");
            assertThat(nested(jar, "redis")).contains("dev/mcppolicy/agent/shaded/redis/clients/jedis/RedisClient.class",
                    "dev/mcppolicy/agent/shaded/org/apache/commons/pool2/impl/GenericObjectPool.class");
            assertThat(nested(jar, "caffeine")).contains("dev/mcppolicy/agent/shaded/com/github/benmanes/caffeine/cache/Caffeine.class");
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
            assertThat(jar.getEntry("dev/mcppolicy/agent/shaded/com/google/re2j/Pattern.class").getMethod())
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

    /**
     * Issue 16: the libraries that load only when configured are nested, a stored jar each, and out of the agent jar's
     * own directory, which every JVM reads in premain; the agent's class loader reads their classes in place.
     */
    @Test
    void nestsTheLibrariesLoadedOnlyWhenConfiguredAndTheAgentsLoaderReadsThemInPlace() throws Exception {
        Path path = Path.of(System.getProperty("agent.jar", "target/mcp-policy-agent.jar"));
        try (JarFile jar = jar()) {
            List<String> prefixes = List.of("dev/mcppolicy/agent/shaded/com/fasterxml/jackson/", "dev/mcppolicy/agent/shaded/redis/",
                    "dev/mcppolicy/agent/shaded/com/google/gson/", "dev/mcppolicy/agent/shaded/org/apache/commons/pool2/",
                    "dev/mcppolicy/agent/shaded/org/yaml/snakeyaml/", "dev/mcppolicy/agent/shaded/com/github/benmanes/caffeine/");
            // their classes only: a resource of theirs (Jedis's version) stays a resource of the agent jar
            assertThat(jar.stream().map(JarEntry::getName).filter(name -> name.endsWith(".class")
                    && prefixes.stream().anyMatch(name::startsWith))).isEmpty();
            assertThat(jar.getEntry("dev/mcppolicy/agent/shaded/redis/clients/jedis/pom.properties")).isNotNull();
            for (String library : List.of("jackson", "redis", "yaml", "caffeine")) {
                assertThat(jar.getEntry(AgentLoader.Libraries.DIRECTORY + library + ".jar").getMethod())
                        .isEqualTo(java.util.zip.ZipEntry.STORED);
            }
            assertThat(jar.size()).as("the agent jar's own entries").isLessThan(700);
        }
        AgentLoader loader = AgentLoader.over(path.toUri().toURL(), ShadedJarIT.class.getClassLoader());
        usesEveryNestedLibrary(loader);
        for (String library : List.of("jackson", "redis", "yaml", "caffeine")) {
            assertThat(loader.readsInPlace(library)).as(library).isTrue();
        }
    }

    /** A jar some tool rewrote, its nested jars no longer where the index says: the loader reads them into memory instead. */
    @Test
    void readsTheNestedLibrariesOfARewrittenJarFromMemory(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path rewritten = dir.resolve("rewritten.jar");
        try (JarFile jar = jar(); var out = new java.util.zip.ZipOutputStream(java.nio.file.Files.newOutputStream(rewritten))) {
            out.putNextEntry(new java.util.zip.ZipEntry("META-INF/a-tool-was-here.txt"));
            out.write("every entry after this one moved".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            for (var entry : Collections.list(jar.entries())) {
                out.putNextEntry(new java.util.zip.ZipEntry(entry.getName()));
                try (var in = jar.getInputStream(entry)) {
                    in.transferTo(out);
                }
            }
        }
        AgentLoader loader = AgentLoader.over(rewritten.toUri().toURL(), ShadedJarIT.class.getClassLoader());
        usesEveryNestedLibrary(loader);
        assertThat(loader.readsInPlace("jackson")).isFalse();
    }

    /** The policy command line, whose YAML reading is two nested libraries, in a JVM of its own: {@code java -jar}. */
    @Test
    void runsTheCommandLineThroughTheAgentsLoader(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path policy = dir.resolve("mcp-policy.yaml");
        java.nio.file.Files.writeString(policy, "version: \"1\"\ndefault: deny\ntools:\n  echo: {}\n");
        Process check = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                Path.of(System.getProperty("agent.jar", "target/mcp-policy-agent.jar")).toString(), "check", policy.toString())
                .redirectErrorStream(true).start();
        String output = new String(check.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(check.waitFor()).as(output).isZero();
        assertThat(output).contains("OK (1 tool rules, default deny");
    }

    /** {@code java -jar mcp-policy-agent.jar --version}: the version the build gave the jar, read from its manifest. */
    @Test
    void printsItsVersion() throws Exception {
        Process version = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                Path.of(System.getProperty("agent.jar", "target/mcp-policy-agent.jar")).toString(), "--version")
                .redirectErrorStream(true).start();
        String output = new String(version.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(version.waitFor()).as(output).isZero();
        assertThat(output.strip()).isEqualTo("mcp-policy-agent " + System.getProperty("project.version"));
    }

    /**
     * The jar carries the project's licence and the third-party notices, and the notices name, with its version,
     * every library whose Maven coordinates the jar carries (META-INF/maven/.../pom.properties, nested ones too).
     */
    @Test
    void bundlesItsLicenceAndANoticeForEveryLibrary() throws Exception {
        String notices = Files.readString(NOTICES);
        try (JarFile jar = jar()) {
            assertThat(read(jar, "META-INF/LICENSE")).contains("Apache License", "Version 2.0");
            assertThat(read(jar, "META-INF/THIRD-PARTY-NOTICES")).isEqualTo(notices);
            Set<String> carried = new TreeSet<>();
            for (var entry : Collections.list(jar.entries())) {
                if (entry.getName().endsWith("/pom.properties") && entry.getName().startsWith("META-INF/maven/")) {
                    Properties pom = new Properties();
                    try (InputStream in = jar.getInputStream(entry)) {
                        pom.load(in);
                    }
                    if (!pom.getProperty("groupId").equals("dev.mcppolicy")) {
                        carried.add(pom.getProperty("groupId") + ":" + pom.getProperty("artifactId") + " " + pom.getProperty("version"));
                    }
                }
            }
            assertThat(carried).hasSizeGreaterThan(10);
            // a library nested in another's jar (Nimbus' jcip-annotations) is named on that library's line
            assertThat(carried).allSatisfy(library -> assertThat(notices).contains(library));
        }
    }

    /** The CycloneDX SBOM lists exactly the components the notices list, and the checksum files match what they name. */
    @Test
    void theSbomAndTheNoticesListTheSameComponentsAndTheChecksumsMatch() throws Exception {
        Path agentJar = Path.of(System.getProperty("agent.jar", "target/mcp-policy-agent.jar"));
        Path sbom = agentJar.resolveSibling("mcp-policy-agent.cdx.json");
        assertChecksumMatches(agentJar);
        assumeTrue(Files.exists(sbom), "no SBOM: the CycloneDX plugin skips an offline build (mvn -o)");
        assertChecksumMatches(sbom);
        Set<String> inSbom = new TreeSet<>();
        for (JsonNode component : new ObjectMapper().readTree(sbom.toFile()).path("components")) {
            if (!component.path("group").asText().equals("dev.mcppolicy")) {
                inSbom.add(component.path("group").asText() + ":" + component.path("name").asText() + " " + component.path("version").asText());
            }
        }
        assertThat(noticedLibraries()).isEqualTo(inSbom);
    }

    /** The libraries {@code THIRD-PARTY-NOTICES} names, one a line: {@code group:artifact version: licence}. */
    private static Set<String> noticedLibraries() throws Exception {
        Set<String> libraries = new TreeSet<>();
        Matcher line = Pattern.compile("(?m)^([\\w.-]+:[\\w.-]+ [^:\\s]+): ").matcher(Files.readString(NOTICES));
        while (line.find()) {
            libraries.add(line.group(1));
        }
        return libraries;
    }

    private static void assertChecksumMatches(Path file) throws Exception {
        Path sum = file.resolveSibling(file.getFileName() + ".sha256");
        String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        assertThat(Files.readString(sum).strip()).isEqualTo(digest + "  " + file.getFileName());
    }

    private static String read(JarFile jar, String name) throws Exception {
        assertThat(jar.getEntry(name)).as(name).isNotNull();
        try (InputStream in = jar.getInputStream(jar.getEntry(name))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Loads and runs a class of each nested library through {@code loader}: Jackson parses, SnakeYAML reads, Caffeine caches, Jedis links. */
    private static void usesEveryNestedLibrary(ClassLoader loader) throws Exception {
        Class<?> mapperType = Class.forName("dev.mcppolicy.agent.shaded.com.fasterxml.jackson.databind.ObjectMapper", true, loader);
        assertThat(mapperType.getClassLoader()).isSameAs(loader);
        Object mapper = mapperType.getConstructor().newInstance();
        Object tree = mapperType.getMethod("readTree", String.class).invoke(mapper, "{\"a\":[1,2]}");
        assertThat(tree.toString()).isEqualTo("{\"a\":[1,2]}");

        Class<?> yamlType = Class.forName("dev.mcppolicy.agent.shaded.org.yaml.snakeyaml.Yaml", true, loader);
        Object yaml = yamlType.getConstructor().newInstance();
        assertThat(yamlType.getMethod("load", String.class).invoke(yaml, "a: 1").toString()).isEqualTo("{a=1}");

        Class<?> caffeine = Class.forName("dev.mcppolicy.agent.shaded.com.github.benmanes.caffeine.cache.Caffeine", true, loader);
        Object cache = caffeine.getMethod("build").invoke(caffeine.getMethod("maximumSize", long.class)
                .invoke(caffeine.getMethod("newBuilder").invoke(null), 10L));
        Class<?> cacheType = Class.forName("dev.mcppolicy.agent.shaded.com.github.benmanes.caffeine.cache.Cache", false, loader);
        cacheType.getMethod("put", Object.class, Object.class).invoke(cache, "k", "v");
        assertThat(cacheType.getMethod("getIfPresent", Object.class).invoke(cache, "k")).isEqualTo("v");

        Class<?> jedis = Class.forName("dev.mcppolicy.agent.shaded.redis.clients.jedis.RedisClient", true, loader);
        assertThat(jedis.getClassLoader()).isSameAs(loader);
        assertThat(Class.forName("dev.mcppolicy.agent.shaded.org.apache.commons.pool2.impl.GenericObjectPool", true, loader)
                .getClassLoader()).isSameAs(loader);
        // a nested library's class the library lacks is not found, and not looked for elsewhere
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> Class.forName("dev.mcppolicy.agent.shaded.com.fasterxml.jackson.NoSuchClass", false, loader))
                .isInstanceOf(ClassNotFoundException.class);
    }

    /** The class file names in the nested jar of {@code library}. */
    private static List<String> nested(JarFile jar, String library) throws Exception {
        List<String> names = new ArrayList<>();
        var entry = jar.getEntry(AgentLoader.Libraries.DIRECTORY + library + ".jar");
        assertThat(entry).as("nested jar %s", library).isNotNull();
        try (var in = new java.util.zip.ZipInputStream(jar.getInputStream(entry))) {
            for (var inner = in.getNextEntry(); inner != null; inner = in.getNextEntry()) {
                names.add(inner.getName());
            }
        }
        return names;
    }
}
