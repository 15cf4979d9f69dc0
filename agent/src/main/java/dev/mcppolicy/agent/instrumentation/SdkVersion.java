package dev.mcppolicy.agent.instrumentation;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * "(mcp-core 1.1.5)", "(langchain4j-mcp 1.11.0-beta19)": the artifact and version a hooked class came from,
 * read from its jar's Maven metadata. A jar inside a jar (a Spring Boot fat jar's {@code BOOT-INF/lib/}) is
 * read through the URL its class loader gave it, else known by its file name.
 */
final class SdkVersion {
    static final String UNKNOWN = "(version unknown)";
    /** Group and artifact: the SDK's own jars, and the Spring transports' (in the SDK before 2.0, in Spring AI from 2.0). */
    private static final String[] ARTIFACTS = {"io.modelcontextprotocol.sdk/mcp-core", "io.modelcontextprotocol.sdk/mcp",
        "io.modelcontextprotocol.sdk/mcp-spring-webmvc", "io.modelcontextprotocol.sdk/mcp-spring-webflux",
        "org.springframework.ai/mcp-spring-webmvc", "org.springframework.ai/mcp-spring-webflux", "dev.langchain4j/langchain4j-mcp",
        "io.quarkiverse.mcp/quarkus-mcp-server-core", "io.modelcontextprotocol/kotlin-sdk-server-jvm",
        "io.modelcontextprotocol/kotlin-sdk-client-jvm"};
    /** By jar: the hooked classes of one JVM mostly come from one SDK jar, opened once. */
    private static final Map<String, String> BY_LOCATION = new ConcurrentHashMap<>();

    private SdkVersion() {
    }

    static String of(ProtectionDomain domain) {
        CodeSource source = domain == null ? null : domain.getCodeSource();
        return of(source == null ? null : source.getLocation());
    }

    static String of(URL location) {
        if (location == null) {
            return UNKNOWN;
        }
        boolean file = "file".equals(location.getProtocol()) && location.getPath().endsWith(".jar");
        if (!file && !"jar".equals(location.getProtocol())) {
            return UNKNOWN;
        }
        String key = location.toString();
        String known = BY_LOCATION.get(key);
        if (known == null) {
            known = file ? readFile(location) : readNested(location);
            BY_LOCATION.put(key, known);
        }
        return known;
    }

    private static String readFile(URL location) {
        try {
            try (JarFile jar = new JarFile(new java.io.File(location.toURI()))) {
                for (String artifact : ARTIFACTS) {
                    JarEntry entry = jar.getJarEntry(pomProperties(artifact));
                    if (entry != null) {
                        try (InputStream in = jar.getInputStream(entry)) {
                            return describe(artifact, in);
                        }
                    }
                }
            }
        } catch (Exception e) {
            return "(version unknown: " + e + ")";
        }
        // a jar with no Maven metadata (the Kotlin MCP SDK's, built by Gradle): known by its file name
        Matcher name = Nested.SDK_JAR.matcher(location.toString());
        return name.find() ? "(" + name.group(1) + " " + name.group(2) + ")" : UNKNOWN;
    }

    /**
     * {@code jar:nested:/app.jar/!BOOT-INF/lib/mcp-core-0.17.0.jar!/} (Boot 3.2+) or
     * {@code jar:file:/app.jar!/BOOT-INF/lib/mcp-core-0.17.0.jar!/} (the loader before): the metadata
     * through the location's own URL handler (the launcher's), which knows how to open it; when that
     * fails, the jar's file name.
     */
    private static String readNested(URL location) {
        for (String artifact : ARTIFACTS) {
            try (InputStream in = new URL(location, pomProperties(artifact)).openStream()) {
                return describe(artifact, in);
            } catch (IOException | RuntimeException e) {
                // not this artifact, or a URL no handler here can open: try the next, then the name
            }
        }
        Matcher name = Nested.SDK_JAR.matcher(location.toString());
        return name.find() ? "(" + name.group(1) + " " + name.group(2) + ")" : UNKNOWN;
    }

    private static String pomProperties(String artifact) {
        return "META-INF/maven/" + artifact + "/pom.properties";
    }

    private static String describe(String artifact, InputStream pomProperties) throws IOException {
        Properties properties = new Properties();
        properties.load(pomProperties);
        return "(" + artifact.substring(artifact.indexOf('/') + 1) + " " + properties.getProperty("version", "?") + ")";
    }

    /**
     * Compiled on the first nested location only: every hooked class is reported through this class, and compiling
     * the pattern cost the agent's start ~3 ms on a cold JVM where no jar is nested (issue 16).
     */
    private static final class Nested {
        /** The innermost jar of a nested location: {@code .../BOOT-INF/lib/mcp-core-0.17.0.jar!/}. */
        static final Pattern SDK_JAR = Pattern.compile(
                "/(mcp-core|mcp|mcp-spring-webmvc|mcp-spring-webflux|langchain4j-mcp|quarkus-mcp-server-core|kotlin-sdk-server-jvm|kotlin-sdk-client-jvm)-(\\d[^/!]*)\\.jar!?/?$");
    }
}
