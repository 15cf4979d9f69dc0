import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * A build step of the agent's jar (issue 16), run by the antrun plugin with the JDK's source launcher:
 * {@code java NestLibraries.java JAR NAME=PREFIX,PREFIX... ...}. It moves the class files under each group's package
 * prefixes into a jar of their own, {@code META-INF/mcp-policy/lib/NAME.jar}, stored (not deflated) inside JAR, and
 * writes {@code META-INF/mcp-policy/lib.index}: one line per group, {@code NAME OFFSET LENGTH PREFIX...}, where
 * OFFSET is the position in JAR of the group jar's first byte and LENGTH its size. The agent's class loader reads a
 * group's classes in place, at that offset, the first time it needs one ({@code AgentLoader}).
 *
 * <p>Why: every JVM the agent is put on opens the agent jar in premain, on the app's main thread, and the JDK reads
 * the whole central directory then, a few microseconds per entry run cold: the ~4,000 entries of the bundled
 * libraries cost ~11 ms there, in every JVM, while the libraries nested here load only when configured (Jackson
 * for the admin page, the command line and YAML; Jedis and its kin for a Redis store; SnakeYAML for YAML; Caffeine
 * for keyed rate limits).
 * Everything else keeps its place, its order and its compression method; directory entries under a group's
 * prefixes are dropped with the classes.
 */
public final class NestLibraries {
    static final String INDEX = "META-INF/mcp-policy/lib.index";
    static final String GROUP_DIR = "META-INF/mcp-policy/lib/";

    public static void main(String[] args) throws IOException {
        Path jar = Path.of(args[0]);
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            String[] group = args[i].split("=", 2);
            groups.put(group[0], List.of(group[1].split(",")));
        }
        Path nested = jar.resolveSibling(jar.getFileName() + ".nested");
        Map<String, long[]> placed = new LinkedHashMap<>();
        int moved = 0;
        try (ZipFile source = new ZipFile(jar.toFile());
                Counting counting = new Counting(new BufferedOutputStream(Files.newOutputStream(nested)));
                ZipOutputStream out = new ZipOutputStream(counting)) {
            Map<String, ByteArrayOutputStream> groupBytes = new LinkedHashMap<>();
            Map<String, ZipOutputStream> groupJars = new LinkedHashMap<>();
            for (String name : groups.keySet()) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                groupBytes.put(name, bytes);
                groupJars.put(name, new ZipOutputStream(bytes));
            }
            // every entry gets the manifest's time (project.build.outputTimestamp): two builds make the same bytes
            long time = source.getEntry("META-INF/MANIFEST.MF").getTime();
            for (ZipEntry entry : Collections.list(source.entries())) {
                String group = groupOf(entry.getName(), groups);
                if (group != null && entry.isDirectory()) {
                    continue;
                }
                byte[] content;
                try (InputStream in = source.getInputStream(entry)) {
                    content = in.readAllBytes();
                }
                if (group != null && entry.getName().endsWith(".class")) {
                    ZipEntry copy = new ZipEntry(entry.getName());
                    copy.setTime(time);
                    groupJars.get(group).putNextEntry(copy);
                    groupJars.get(group).write(content);
                    groupJars.get(group).closeEntry();
                    moved++;
                    continue;
                }
                put(out, entry.getName(), content, entry.getMethod() == ZipEntry.STORED, time);
            }
            StringBuilder index = new StringBuilder("# group offset length prefixes: each group's classes, a stored jar at that offset\n");
            for (Map.Entry<String, List<String>> group : groups.entrySet()) {
                groupJars.get(group.getKey()).close();
                byte[] content = groupBytes.get(group.getKey()).toByteArray();
                String entryName = GROUP_DIR + group.getKey() + ".jar";
                out.closeEntry();
                long header = counting.count;
                put(out, entryName, content, true, time);
                // a stored entry with no extra field: its data follows the 30-byte local header and the name
                long offset = header + 30 + entryName.getBytes(StandardCharsets.UTF_8).length;
                placed.put(group.getKey(), new long[] {offset, content.length});
                index.append(group.getKey()).append(' ').append(offset).append(' ').append(content.length);
                for (String prefix : group.getValue()) {
                    index.append(' ').append(prefix);
                }
                index.append('\n');
            }
            put(out, INDEX, index.toString().getBytes(StandardCharsets.UTF_8), false, time);
        }
        check(nested, placed);
        Files.move(nested, jar, StandardCopyOption.REPLACE_EXISTING);
        System.out.println("[nest-libraries] " + moved + " class files moved into " + groups.size() + " nested jars: " + groups.keySet());
    }

    private static String groupOf(String name, Map<String, List<String>> groups) {
        for (Map.Entry<String, List<String>> group : groups.entrySet()) {
            for (String prefix : group.getValue()) {
                if (name.startsWith(prefix)) {
                    return group.getKey();
                }
            }
        }
        return null;
    }

    private static void put(ZipOutputStream out, String name, byte[] content, boolean stored, long time) throws IOException {
        ZipEntry entry = new ZipEntry(name);
        entry.setTime(time);
        if (stored) {
            CRC32 crc = new CRC32();
            crc.update(content);
            entry.setMethod(ZipEntry.STORED);
            entry.setSize(content.length);
            entry.setCompressedSize(content.length);
            entry.setCrc(crc.getValue());
        }
        out.putNextEntry(entry);
        out.write(content);
        out.closeEntry();
    }

    /** Fails the build unless each group jar starts and ends where the index says (a local header, an end record). */
    private static void check(Path jar, Map<String, long[]> placed) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(jar.toFile(), "r")) {
            for (Map.Entry<String, long[]> group : placed.entrySet()) {
                long offset = group.getValue()[0];
                long length = group.getValue()[1];
                if (intAt(file, offset) != 0x04034b50 || intAt(file, offset + length - 22) != 0x06054b50) {
                    throw new IllegalStateException("the nested jar " + group.getKey() + " is not at " + offset + " in " + jar);
                }
            }
        }
    }

    private static int intAt(RandomAccessFile file, long position) throws IOException {
        byte[] four = new byte[4];
        file.seek(position);
        file.readFully(four);
        return (four[0] & 0xff) | (four[1] & 0xff) << 8 | (four[2] & 0xff) << 16 | (four[3] & 0xff) << 24;
    }

    /** Counts the bytes written through it: where the next entry's local header starts. */
    private static final class Counting extends FilterOutputStream {
        long count;

        Counting(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
