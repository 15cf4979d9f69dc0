package dev.mcppolicy.agent;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSigner;
import java.security.CodeSource;
import java.security.PermissionCollection;
import java.security.Permissions;
import java.security.ProtectionDomain;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

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
 *
 * <p>It reads its classes from the jar itself, not through {@code URLClassLoader}'s resource lookup: one entry
 * lookup and one read into an array of the class's exact size, one protection domain for all, the manifest read
 * once for their packages (issue 16: {@code URLClassLoader}'s lookup, its growing copies of each class's bytes and
 * its per-class code source and package checks were a quarter of the agent's class loading at start). Resources,
 * and classes when the jar is not a local file, still go through {@code URLClassLoader}.
 */
final class AgentLoader extends URLClassLoader {
    private static final String OURS = "dev.mcppolicy.";

    static {
        registerAsParallelCapable();
    }

    /** One per JVM: a second attach must find the running agent's classes, not a fresh copy. */
    private static ClassLoader instance;

    private final URL jar;
    /** The agent jar, or {@code null} when it is not a local file (then classes are read as resources). */
    private final ZipFile zip;
    /** The jar's manifest, for the packages defined here (the version the agent reports is its {@code Implementation-Version}). */
    private final Manifest manifest;
    /** One for all the agent's classes, as {@code SecureClassLoader} would make for the jar's code source. */
    private final ProtectionDomain domain;

    private AgentLoader(URL jar, ClassLoader parent) {
        // named, so that stack traces and heap dumps say whose classes these are
        super("mcp-policy-agent", new URL[] {jar}, parent);
        this.jar = jar;
        ZipFile opened = open(jar);
        Manifest read = null;
        if (opened != null) {
            try {
                read = manifestOf(opened);
            } catch (IOException e) {
                close(opened);
                opened = null;
            }
        }
        this.zip = opened;
        this.manifest = read;
        this.domain = new ProtectionDomain(new CodeSource(jar, (CodeSigner[]) null), new Permissions(), this, null);
    }

    /** A loader over {@code jar} that is not the JVM's one (for tests). */
    static AgentLoader over(URL jar, ClassLoader parent) {
        return new AgentLoader(jar, parent);
    }

    private static ZipFile open(URL jar) {
        if (!"file".equals(jar.getProtocol()) || jar.getPath().endsWith("/")) {
            return null;
        }
        try {
            return new ZipFile(new File(jar.toURI()));
        } catch (IOException | URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    private static Manifest manifestOf(ZipFile zip) throws IOException {
        ZipEntry entry = zip.getEntry(JarFile.MANIFEST_NAME);
        if (entry == null) {
            return null;
        }
        try (InputStream in = zip.getInputStream(entry)) {
            return new Manifest(in);
        }
    }

    private static void close(ZipFile zip) {
        try {
            zip.close();
        } catch (IOException e) {
            // nothing was read from it
        }
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

    /** One of the agent's classes, read straight from the jar (see the class comment). */
    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        ZipEntry entry = zip == null ? null : zip.getEntry(name.replace('.', '/').concat(".class"));
        if (entry == null || entry.getSize() < 0 || entry.getSize() > Integer.MAX_VALUE) {
            return super.findClass(name);
        }
        byte[] bytes = new byte[(int) entry.getSize()];
        try (InputStream in = zip.getInputStream(entry)) {
            if (in.readNBytes(bytes, 0, bytes.length) != bytes.length) {
                throw new ClassNotFoundException(name + ": the agent jar's entry is shorter than its size");
            }
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
        definePackageOf(name);
        return defineClass(name, bytes, 0, bytes.length, domain);
    }

    /** Defines the package of {@code className} (one of ours: always in a package) from the jar's manifest, once, as {@code URLClassLoader} does. */
    private void definePackageOf(String className) {
        String name = className.substring(0, className.lastIndexOf('.'));
        if (getDefinedPackage(name) != null) {
            return;
        }
        try {
            if (manifest != null) {
                definePackage(name, manifest, jar);
            } else {
                definePackage(name, null, null, null, null, null, null, null);
            }
        } catch (IllegalArgumentException raced) {
            // another thread defined it meanwhile
        }
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
