package dev.mcppolicy.agent;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.security.CodeSigner;
import java.security.CodeSource;
import java.security.PermissionCollection;
import java.security.Permissions;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
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
    /** The bundled libraries' package: the only classes looked for in the nested jars. */
    private static final String SHADED = "dev.mcppolicy.agent.shaded.";

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
    /** The nested library jars, once a class the jar itself lacks was asked for. Guarded by {@code this}. */
    private Libraries libraries;

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
                || name.equals("dev.mcppolicy.agent.AgentPremain") || name.equals("dev.mcppolicy.agent.AgentLoader")
                || name.startsWith("dev.mcppolicy.agent.AgentLoader$");
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

    /**
     * One of the agent's classes, read straight from the jar (see the class comment); a bundled library's class the jar
     * itself lacks, from the library's nested jar ({@link Libraries}).
     */
    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        String path = name.replace('.', '/').concat(".class");
        ZipEntry entry = zip == null ? null : zip.getEntry(path);
        byte[] bytes;
        try {
            if (entry != null && entry.getSize() >= 0 && entry.getSize() <= Integer.MAX_VALUE) {
                bytes = new byte[(int) entry.getSize()];
                try (InputStream in = zip.getInputStream(entry)) {
                    if (in.readNBytes(bytes, 0, bytes.length) != bytes.length) {
                        throw new ClassNotFoundException(name + ": the agent jar's entry is shorter than its size");
                    }
                }
            } else if (entry != null || zip == null || !name.startsWith(SHADED) || (bytes = libraries().read(path)) == null) {
                return super.findClass(name);
            }
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
        definePackageOf(name);
        return defineClass(name, bytes, 0, bytes.length, domain);
    }

    /** Whether the nested library {@code name} has been opened and is read in place, not from memory (for tests). */
    synchronized boolean readsInPlace(String name) {
        if (libraries != null) {
            synchronized (libraries) {
                for (Library library : libraries.all) {
                    if (library.name.equals(name)) {
                        return library.entries != null && library.memory == null;
                    }
                }
            }
        }
        return false;
    }

    /** The bundled libraries nested in the jar, their index read the first time one of their classes is asked for. */
    private synchronized Libraries libraries() throws IOException {
        if (libraries == null) {
            File file;
            try {
                file = new File(jar.toURI());
            } catch (URISyntaxException | IllegalArgumentException e) {
                throw new IOException("the agent jar " + jar + " is not a file", e);
            }
            libraries = Libraries.of(zip, file);
        }
        return libraries;
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

    /**
     * The bundled libraries that load only when configured (Jackson, Jedis and its kin, SnakeYAML, Caffeine), each a stored jar
     * inside the agent jar (the build's {@code src/build/NestLibraries.java}), and {@code META-INF/mcp-policy/lib.index}
     * saying where: {@code NAME OFFSET LENGTH PREFIX...} per library, OFFSET being the position of the nested jar's
     * first byte in the agent jar.
     *
     * <p>Why (issue 16): every JVM the agent is put on opens the agent jar in premain, on the app's main thread, and
     * the JDK reads its whole central directory then, a few microseconds per entry run cold. Nested, the ~3,500 class
     * files of those libraries cost that only in a JVM that uses them, when it first does: a library's own directory
     * is read the first time one of its classes is asked for, and its classes straight from the agent jar at their
     * place. A jar whose nested jars are not where the index says (rewritten by some tool) has each read into memory
     * instead. The class files of these libraries are not resources of the agent's class loader.
     */
    static final class Libraries {
        static final String INDEX = "META-INF/mcp-policy/lib.index";
        static final String DIRECTORY = "META-INF/mcp-policy/lib/";
        private static final int LOCAL = 0x04034b50;
        private static final int CENTRAL = 0x02014b50;
        private static final int END = 0x06054b50;
        private static final int END_SIZE = 22;

        private final ZipFile zip;
        private final File file;
        private final Library[] all;
        /** The agent jar, opened at the first read in place. Guarded by {@code this}. */
        private RandomAccessFile in;

        private Libraries(ZipFile zip, File file, Library[] all) {
            this.zip = zip;
            this.file = file;
            this.all = all;
        }

        /** The libraries the index of {@code zip} (the agent jar, {@code file}) lists; none without an index. */
        static Libraries of(ZipFile zip, File file) throws IOException {
            ZipEntry index = zip.getEntry(INDEX);
            List<Library> all = new ArrayList<>();
            if (index != null) {
                String text;
                try (InputStream in = zip.getInputStream(index)) {
                    text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
                for (String line : text.split("\n")) {
                    if (line.isBlank() || line.startsWith("#")) {
                        continue;
                    }
                    String[] fields = line.trim().split(" ");
                    if (fields.length < 4) {
                        throw new IOException("the agent jar's " + INDEX + " has a line without a library's place and prefixes: " + line);
                    }
                    try {
                        all.add(new Library(fields[0], Long.parseLong(fields[1]), Long.parseLong(fields[2]),
                                Arrays.copyOfRange(fields, 3, fields.length)));
                    } catch (NumberFormatException e) {
                        throw new IOException("the agent jar's " + INDEX + " has a line whose place is not a number: " + line, e);
                    }
                }
            }
            return new Libraries(zip, file, all.toArray(new Library[0]));
        }

        /** The class file at {@code path} from the library whose prefix it has; {@code null} if none has it. */
        synchronized byte[] read(String path) throws IOException {
            for (Library library : all) {
                if (library.holds(path)) {
                    if (library.entries == null) {
                        open(library);
                    }
                    long[] at = library.entries.get(path);
                    return at == null ? null : classFile(library, path, at);
                }
            }
            return null;
        }

        /** Reads the directory of {@code library}'s nested jar, in place when it is where the index says, else into memory. */
        private void open(Library library) throws IOException {
            String name = DIRECTORY + library.name + ".jar";
            ZipEntry entry = zip.getEntry(name);
            if (entry == null) {
                throw new IOException("the agent jar lacks " + name + ", which its " + INDEX + " lists");
            }
            boolean inPlace = entry.getMethod() == ZipEntry.STORED && entry.getSize() == library.length
                    && library.length >= END_SIZE && intAt(bytes(library, 0, 4), 0) == LOCAL
                    && intAt(bytes(library, library.length - END_SIZE, 4), 0) == END;
            if (!inPlace) {
                try (InputStream nested = zip.getInputStream(entry)) {
                    library.memory = nested.readAllBytes();
                }
                library.length = library.memory.length;
            }
            byte[] end = bytes(library, library.length - END_SIZE, END_SIZE);
            if (intAt(end, 0) != END) {
                throw new IOException(name + " in the agent jar does not end as a jar does");
            }
            int count = shortAt(end, 10);
            byte[] directory = bytes(library, intAt(end, 16) & 0xffffffffL, intAt(end, 12));
            Map<String, long[]> entries = new HashMap<>(count * 4 / 3 + 1);
            for (int i = 0, p = 0; i < count; i++) {
                if (intAt(directory, p) != CENTRAL) {
                    throw new IOException(name + " in the agent jar has a broken directory at its entry " + i);
                }
                int nameLength = shortAt(directory, p + 28);
                entries.put(new String(directory, p + 46, nameLength, StandardCharsets.UTF_8),
                        new long[] {intAt(directory, p + 42) & 0xffffffffL, intAt(directory, p + 20) & 0xffffffffL,
                            intAt(directory, p + 24) & 0xffffffffL, shortAt(directory, p + 10)});
                p += 46 + nameLength + shortAt(directory, p + 30) + shortAt(directory, p + 32);
            }
            library.entries = entries;
        }

        /** A class file of {@code library}: {@code at} is its local header's offset, compressed size, size and method. */
        private byte[] classFile(Library library, String path, long[] at) throws IOException {
            byte[] header = bytes(library, at[0], 30);
            if (intAt(header, 0) != LOCAL) {
                throw new IOException(path + " in the agent jar's nested " + library.name + " jar has no local header");
            }
            long data = at[0] + 30 + shortAt(header, 26) + shortAt(header, 28);
            if (at[3] == ZipEntry.STORED) {
                return bytes(library, data, (int) at[1]);
            }
            if (at[3] != ZipEntry.DEFLATED) {
                throw new IOException(path + " in the agent jar's nested " + library.name + " jar has compression method " + at[3]);
            }
            // one byte more than the data: a raw inflater may need it to see the end
            byte[] compressed = Arrays.copyOf(bytes(library, data, (int) at[1]), (int) at[1] + 1);
            Inflater inflater = new Inflater(true);
            try {
                inflater.setInput(compressed);
                byte[] bytes = new byte[(int) at[2]];
                int inflated = 0;
                while (inflated < bytes.length && !inflater.finished()) {
                    int n = inflater.inflate(bytes, inflated, bytes.length - inflated);
                    if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                        break;
                    }
                    inflated += n;
                }
                if (inflated != bytes.length) {
                    throw new IOException(path + " in the agent jar's nested " + library.name + " jar inflates to "
                            + inflated + " bytes, not " + bytes.length);
                }
                return bytes;
            } catch (DataFormatException e) {
                throw new IOException(path + " in the agent jar's nested " + library.name + " jar is corrupt", e);
            } finally {
                inflater.end();
            }
        }

        /** {@code length} bytes of {@code library}'s nested jar from {@code position}: from memory, or the agent jar. */
        private byte[] bytes(Library library, long position, int length) throws IOException {
            if (position < 0 || length < 0 || position + length > library.length) {
                throw new IOException("the agent jar's nested " + library.name + " jar is shorter than its directory says");
            }
            if (library.memory != null) {
                return Arrays.copyOfRange(library.memory, (int) position, (int) position + length);
            }
            if (in == null) {
                in = new RandomAccessFile(file, "r");
            }
            byte[] bytes = new byte[length];
            in.seek(library.offset + position);
            in.readFully(bytes);
            return bytes;
        }

        private static int shortAt(byte[] bytes, int at) {
            return (bytes[at] & 0xff) | (bytes[at + 1] & 0xff) << 8;
        }

        private static int intAt(byte[] bytes, int at) {
            return shortAt(bytes, at) | shortAt(bytes, at + 2) << 16;
        }
    }

    /** One nested library: its jar's place in the agent jar, the package prefixes of its classes, and once read, its directory. */
    private static final class Library {
        final String name;
        final long offset;
        final String[] prefixes;
        long length;
        /** The nested jar's bytes, when it is not read in place. */
        byte[] memory;
        /** By class file path: local header offset, compressed size, size, method. */
        Map<String, long[]> entries;

        Library(String name, long offset, long length, String[] prefixes) {
            this.name = name;
            this.offset = offset;
            this.length = length;
            this.prefixes = prefixes;
        }

        boolean holds(String path) {
            for (String prefix : prefixes) {
                if (path.startsWith(prefix)) {
                    return true;
                }
            }
            return false;
        }
    }
}
