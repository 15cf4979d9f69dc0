package dev.mcppolicy.agent.instrumentation;

import java.io.InputStream;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/** "(mcp-core 1.1.5)", "(langchain4j-mcp 1.11.0-beta19)": the SDK artifact and version a hooked class came from, read from its jar's Maven metadata. */
final class SdkVersion {
    /** By jar: the hooked classes of one JVM mostly come from one SDK jar, opened once. */
    private static final Map<String, String> BY_LOCATION = new ConcurrentHashMap<>();

    private SdkVersion() {
    }

    static String of(ProtectionDomain domain) {
        CodeSource source = domain == null ? null : domain.getCodeSource();
        URL location = source == null ? null : source.getLocation();
        if (location == null || !"file".equals(location.getProtocol()) || !location.getPath().endsWith(".jar")) {
            return "(version unknown)";
        }
        String key = location.toString();
        String known = BY_LOCATION.get(key);
        if (known == null) {
            known = read(location);
            BY_LOCATION.put(key, known);
        }
        return known;
    }

    private static String read(URL location) {
        try {
            try (JarFile jar = new JarFile(new java.io.File(location.toURI()))) {
                for (String artifact : new String[] {"io.modelcontextprotocol.sdk/mcp-core", "io.modelcontextprotocol.sdk/mcp",
                        "dev.langchain4j/langchain4j-mcp"}) {
                    JarEntry entry = jar.getJarEntry("META-INF/maven/" + artifact + "/pom.properties");
                    if (entry != null) {
                        Properties properties = new Properties();
                        try (InputStream in = jar.getInputStream(entry)) {
                            properties.load(in);
                        }
                        return "(" + artifact.substring(artifact.indexOf('/') + 1) + " " + properties.getProperty("version", "?") + ")";
                    }
                }
            }
        } catch (Exception e) {
            return "(version unknown: " + e + ")";
        }
        return "(version unknown)";
    }
}
