package dev.mcppolicy.it;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the built agent and fixture apps are (set by failsafe), and the class path of each SDK version's fixtures. */
final class Fixtures {
    private Fixtures() {
    }

    static Path agentJar() {
        Path jar = Path.of(System.getProperty("agent.jar", "../../agent/target/mcp-policy-agent.jar")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("agent jar not built: " + jar);
        }
        return jar;
    }

    static String javaagent(String options) {
        return "-javaagent:" + agentJar() + (options == null || options.isEmpty() ? "" : "=" + options);
    }

    static Path fixtureModule(String sdkVersion) {
        return Path.of(System.getProperty("fixtures.dir", "../fixtures"), "sdk-" + sdkVersion).toAbsolutePath().normalize();
    }

    /**
     * The fixture classes plus their SDK's runtime class path and an SLF4J provider (slf4j-simple on
     * stderr, or the 2.1.0 fixture's Logback), so the SDK's own errors are seen, not swallowed.
     */
    static String classPath(String sdkVersion) {
        Path module = fixtureModule(sdkVersion);
        Path lib = module.resolve("target/lib");
        if (!Files.isDirectory(lib)) {
            throw new IllegalStateException("fixture for SDK " + sdkVersion + " not built: " + lib);
        }
        String classPath = module.resolve("target/classes") + File.pathSeparator + lib + File.separator + "*";
        Path provider = module.resolve("target/provider");
        return Files.isDirectory(provider) ? classPath + File.pathSeparator + provider + File.separator + "*" : classPath;
    }

    /**
     * The fixture classes and their SDK's runtime class path without any SLF4J provider (no Logback, no
     * slf4j-simple): the agent then logs decisions through {@code java.util.logging}.
     */
    static String classPathWithoutProvider(String sdkVersion) throws java.io.IOException {
        Path module = fixtureModule(sdkVersion);
        StringBuilder classPath = new StringBuilder(module.resolve("target/classes").toString());
        try (var jars = Files.list(module.resolve("target/lib"))) {
            jars.map(Path::toString).filter(jar -> !jar.contains("logback-") && !jar.contains("slf4j-simple")).sorted()
                    .forEach(jar -> classPath.append(File.pathSeparator).append(jar));
        }
        return classPath.toString();
    }

    /** The Spring Boot fat jar of a Spring AI fixture server ({@code fixtures/spring-ai-<fixture>}: {@code 1.1.2}, {@code 1.1.2-stdio}, {@code 1.1.2-webflux}). */
    static Path springApp(String fixture) {
        Path jar = Path.of(System.getProperty("fixtures.dir", "../fixtures"), "spring-ai-" + fixture, "target", "app.jar")
                .toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Spring AI fixture " + fixture + " not built: " + jar);
        }
        return jar;
    }

    /** The LangChain4j app on {@code langchain4j-mcp} {@code version} (1.0.0, 1.11.0, ...) and its runtime class path; no MCP SDK. */
    static String langchain4jClassPath(String version) {
        Path module = Path.of(System.getProperty("fixtures.dir", "../fixtures"), "langchain4j-" + version).toAbsolutePath().normalize();
        Path lib = module.resolve("target/lib");
        if (!Files.isDirectory(lib)) {
            throw new IllegalStateException("LangChain4j fixture " + version + " not built: " + lib);
        }
        return module.resolve("target/classes") + File.pathSeparator + lib + File.separator + "*";
    }

    /** The demo sandbox server's jar ({@code demo-app}), which {@code java -jar} runs as a stdio MCP server. */
    static Path demoJar() {
        Path jar = Path.of(System.getProperty("demo.jar", "../../demo-app/target/demo-app.jar")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("demo app not built: " + jar);
        }
        return jar;
    }

    /**
     * The Quarkus fixture app on {@code quarkus-mcp-server} {@code version} ({@code fixtures/quarkus-mcp-<version>}) as
     * Quarkus builds it: {@code target/quarkus-app/quarkus-run.jar}, run with {@code java -jar}.
     */
    static Path quarkusApp(String version) {
        Path jar = Path.of(System.getProperty("fixtures.dir", "../fixtures"), "quarkus-mcp-" + version, "target", "quarkus-app",
                "quarkus-run.jar").toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Quarkus fixture " + version + " not built: " + jar);
        }
        return jar;
    }

    /** The Kotlin fixture apps ({@code fixtures/kotlin-sdk-0.16.0}): their classes and runtime class path (with slf4j-simple). */
    static String kotlinClassPath() {
        Path module = Path.of(System.getProperty("fixtures.dir", "../fixtures"), "kotlin-sdk-0.16.0").toAbsolutePath().normalize();
        Path lib = module.resolve("target/lib");
        if (!Files.isDirectory(lib)) {
            throw new IllegalStateException("Kotlin fixture not built: " + lib);
        }
        return module.resolve("target/classes") + File.pathSeparator + lib + File.separator + "*";
    }

    /** A TCP port free on loopback now, for a server that cannot report the one it took (Quarkus' port 0 stays 0 in its config). */
    static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Only the fixture classes: a JVM with no MCP SDK on its class path. */
    static String classesOnly(String sdkVersion) {
        return fixtureModule(sdkVersion).resolve("target/classes").toString();
    }

    /** A fresh, empty working directory for one test's JVMs. */
    static Path workDir(String name) throws java.io.IOException {
        Path dir = workPath(name);
        if (Files.exists(dir)) {
            try (var paths = Files.walk(dir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
        Files.createDirectories(dir);
        return dir;
    }

    static Path workPath(String name) {
        return Path.of(System.getProperty("work.dir", "target/it-work")).toAbsolutePath().resolve(name);
    }
}
