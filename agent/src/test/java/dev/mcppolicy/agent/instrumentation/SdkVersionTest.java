package dev.mcppolicy.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Where a hooked class's SDK version comes from, including a Spring Boot fat jar's nested jars (issue 11). */
class SdkVersionTest {
    @Test
    void namesTheSdkJarNestedInABootFatJarByTheCurrentLoadersUrl() throws MalformedURLException {
        // as here, where no launcher's handler can open it: the name says it
        assertThat(SdkVersion.of(nested("jar:nested:/srv/app.jar/!BOOT-INF/lib/mcp-core-0.17.0.jar!/", null)))
                .isEqualTo("(mcp-core 0.17.0)");
    }

    @Test
    void namesTheSdkJarNestedInABootFatJarByTheClassicLoadersUrl() throws MalformedURLException {
        assertThat(SdkVersion.of(new URL("jar:file:/srv/app.jar!/BOOT-INF/lib/mcp-0.10.0.jar!/"))).isEqualTo("(mcp 0.10.0)");
    }

    @Test
    void namesTheSpringTransportsJar() throws MalformedURLException {
        assertThat(SdkVersion.of(nested("jar:nested:/srv/app.jar/!BOOT-INF/lib/mcp-spring-webmvc-0.17.0.jar!/", null)))
                .isEqualTo("(mcp-spring-webmvc 0.17.0)");
    }

    @Test
    void readsTheNestedJarsMavenMetadataThroughTheLocationsOwnHandler() throws MalformedURLException {
        URL location = nested("jar:nested:/srv/app.jar/!BOOT-INF/lib/renamed.jar!/", "1.1.5");
        assertThat(SdkVersion.of(location)).isEqualTo("(mcp-core 1.1.5)");
    }

    @Test
    void doesNotTakeAnotherNestedJarForTheSdk() throws MalformedURLException {
        assertThat(SdkVersion.of(nested("jar:nested:/srv/app.jar/!BOOT-INF/lib/mcp-annotations-0.8.0.jar!/", null)))
                .isEqualTo(SdkVersion.UNKNOWN);
        assertThat(SdkVersion.of(nested("jar:nested:/srv/app.jar/!BOOT-INF/classes/!/", null))).isEqualTo(SdkVersion.UNKNOWN);
    }

    @Test
    void knowsNoVersionForAClassesDirectory() throws MalformedURLException {
        assertThat(SdkVersion.of(new URL("file:/srv/app/classes/"))).isEqualTo(SdkVersion.UNKNOWN);
        assertThat(SdkVersion.of((URL) null)).isEqualTo(SdkVersion.UNKNOWN);
    }

    /** A URL as Spring Boot's launcher makes it, with its own handler (the JDK's has no {@code nested:}). */
    private static URL nested(String spec, String mcpCoreVersion) throws MalformedURLException {
        return new URL(null, spec, new PomPropertiesHandler(mcpCoreVersion));
    }

    /** A launcher's jar handler: serves mcp-core's {@code pom.properties} inside the nested jar when it has a version, nothing else. */
    private static final class PomPropertiesHandler extends URLStreamHandler {
        private final String version;

        PomPropertiesHandler(String version) {
            this.version = version;
        }

        @Override
        protected URLConnection openConnection(URL url) {
            return new URLConnection(url) {
                @Override
                public void connect() {
                }

                @Override
                public InputStream getInputStream() throws FileNotFoundException {
                    if (version == null || !url.toString().endsWith("!/META-INF/maven/io.modelcontextprotocol.sdk/mcp-core/pom.properties")) {
                        throw new FileNotFoundException(url.toString());
                    }
                    return new ByteArrayInputStream(("version=" + version + "\n").getBytes(StandardCharsets.UTF_8));
                }
            };
        }
    }
}
