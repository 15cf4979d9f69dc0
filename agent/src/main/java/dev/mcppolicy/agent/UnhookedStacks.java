package dev.mcppolicy.agent;

import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * MCP libraries under a package the agent wakes up for but has no hooks for yet (SPEC §11: never silent): the
 * first class of each loaded is one WARN naming the class, its jar and the library, so a user who adds the agent
 * to such an app learns that its tool calls are not policed. Loaded and checked only for classes that woke the agent
 * (one {@code startsWith} per family), never for the app's other classes.
 */
final class UnhookedStacks {
    /** Package prefix (internal form) and the library it is, as README's supported-stacks table names it. */
    private static final String[][] FAMILIES = {
        {"io/modelcontextprotocol/kotlin/", "the Kotlin MCP SDK (io.modelcontextprotocol:kotlin-sdk)"}};
    private static final AtomicBoolean[] WARNED = {new AtomicBoolean()};

    private UnhookedStacks() {
    }

    /** A class that woke the agent and that it does not weave: a WARN if it is the first of an unhooked library. */
    static void loaded(String className, ProtectionDomain domain) {
        for (int i = 0; i < FAMILIES.length; i++) {
            if (className.startsWith(FAMILIES[i][0]) && WARNED[i].compareAndSet(false, true)) {
                Diagnostics.warn("NOT policed: " + className.replace('/', '.') + " (" + jarOf(domain) + ") is " + FAMILIES[i][1]
                        + ", which this agent does not hook yet; its tool calls are NOT policed (README, Supported stacks)");
            }
        }
    }

    /** The file name of the jar (or folder) a class came from, or {@code location unknown}. */
    private static String jarOf(ProtectionDomain domain) {
        CodeSource source = domain == null ? null : domain.getCodeSource();
        URL location = source == null ? null : source.getLocation();
        if (location == null) {
            return "location unknown";
        }
        String path = location.getPath();
        if (path.endsWith("!/")) {
            path = path.substring(0, path.length() - 2);
        }
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
