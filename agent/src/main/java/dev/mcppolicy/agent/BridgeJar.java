package dev.mcppolicy.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * Puts {@code dev.mcppolicy.agent.bootstrap} on the bootstrap class path, so inlined advice resolves
 * the bridge from any class loader (research/sdk-points.md §7.2: on the system class path it broke in
 * an isolated loader). The classes are copied from the agent jar into a small temporary jar; nothing
 * in the agent may touch them before this has run, or the app loader would define a second copy.
 */
final class BridgeJar {
    private static final List<String> CLASSES = List.of(
            "dev/mcppolicy/agent/bootstrap/PolicyBridge.class",
            "dev/mcppolicy/agent/bootstrap/PolicyBridge$Hooks.class");

    private BridgeJar() {
    }

    static void appendToBootstrap(Instrumentation inst) throws IOException {
        Path jar = Files.createTempFile("mcp-policy-bridge-", ".jar");
        jar.toFile().deleteOnExit();
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            for (String name : CLASSES) {
                try (InputStream in = BridgeJar.class.getClassLoader().getResourceAsStream(name)) {
                    if (in == null) {
                        throw new IOException("agent jar lacks " + name);
                    }
                    out.putNextEntry(new JarEntry(name));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        }
        inst.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
    }
}
