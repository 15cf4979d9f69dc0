package dev.mcppolicy.agent.instrumentation;

import java.io.InputStream;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/** "(mcp-core 1.1.5)": the SDK artifact and version a hooked class came from, read from its jar's Maven metadata. */
final class SdkVersion {
    private SdkVersion() {
    }

    static String of(ProtectionDomain domain) {
        try {
            CodeSource source = domain == null ? null : domain.getCodeSource();
            URL location = source == null ? null : source.getLocation();
            if (location == null || !"file".equals(location.getProtocol()) || !location.getPath().endsWith(".jar")) {
                return "(version unknown)";
            }
            try (JarFile jar = new JarFile(new java.io.File(location.toURI()))) {
                for (String artifact : new String[] {"mcp-core", "mcp"}) {
                    JarEntry entry = jar.getJarEntry("META-INF/maven/io.modelcontextprotocol.sdk/" + artifact + "/pom.properties");
                    if (entry != null) {
                        Properties properties = new Properties();
                        try (InputStream in = jar.getInputStream(entry)) {
                            properties.load(in);
                        }
                        return "(" + artifact + " " + properties.getProperty("version", "?") + ")";
                    }
                }
            }
        } catch (Exception e) {
            return "(version unknown: " + e + ")";
        }
        return "(version unknown)";
    }
}
