package dev.mcppolicy.agent;

import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSource;
import java.security.PermissionCollection;
import java.security.Permissions;

/**
 * The class loader of the agent's own classes: everything in the agent jar but the few classes the app's code
 * must share with the agent (the doorman, this loader, the bridge woven code calls, the canary's target), which
 * stay with the system class loader the JVM put the jar on. OpenTelemetry's and Datadog's agents keep their
 * classes apart the same way.
 *
 * <p>Why (issue 16): the JVM appends the agent jar to the end of the app's class path, so on the system class
 * loader every one of the ~150 classes the agent loads at start was first asked of the boot and platform
 * loaders, then looked up in every entry of the app's class path (a stat per directory, a lookup per jar)
 * before the agent jar: ~30 ms of the start's CPU with an 18-entry class path, and growing with the class path.
 * Here an agent class is looked up in the agent jar alone, at once. A class of any other name (the JDK, the
 * app, the SDK) is delegated to the system class loader as usual.
 */
final class AgentLoader extends URLClassLoader {
    private static final String OURS = "dev.mcppolicy.";

    static {
        registerAsParallelCapable();
    }

    /** One per JVM: a second attach must find the running agent's classes, not a fresh copy. */
    private static ClassLoader instance;

    private AgentLoader(URL jar, ClassLoader parent) {
        // named, so that stack traces and heap dumps say whose classes these are
        super("mcp-policy-agent", new URL[] {jar}, parent);
    }

    /**
     * The agent's loader for the jar {@code doorman} came from; the doorman's own loader when that jar is not
     * known (no code source: nothing then is kept apart, as before this loader).
     */
    static synchronized ClassLoader of(Class<?> doorman) {
        if (instance == null) {
            CodeSource source = doorman.getProtectionDomain().getCodeSource();
            URL jar = source == null ? null : source.getLocation();
            instance = jar == null ? doorman.getClassLoader() : new AgentLoader(jar, doorman.getClassLoader());
        }
        return instance;
    }

    /** Whether the app's code and the agent share this class, from the system class loader: the bridge and its kin. */
    static boolean sharedWithApp(String name) {
        return name.startsWith("dev.mcppolicy.agent.bridge.") || name.startsWith("dev.mcppolicy.agent.canary.CanaryTarget")
                || name.equals("dev.mcppolicy.agent.AgentPremain") || name.equals("dev.mcppolicy.agent.AgentLoader");
    }

    /**
     * No permissions of its own, as the system class loader gives its classes ({@code SecureClassLoader}'s): a
     * security policy, if any, still grants through the protection domain. {@code URLClassLoader}'s would add a
     * read permission for the jar, which opened a connection to it and started {@code java.security.Security}
     * (reading the JDK's security properties file) in premain, in every JVM: ~3 ms of a hello world.
     */
    @Override
    protected PermissionCollection getPermissions(CodeSource codesource) {
        return new Permissions();
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(OURS) || sharedWithApp(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                loaded = findClass(name);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }
}
