package dev.mcppolicy.it;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The agent writes audit records from a thread of its own: tests wait for them to land. */
final class AuditFiles {
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private AuditFiles() {
    }

    /** The file's lines once it has at least {@code count}; fails after {@link #TIMEOUT}. */
    static List<String> awaitLines(Path file, int count) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Path dir = file.getParent();
        while (!Files.isDirectory(dir)) {
            dir = dir.getParent();
        }
        try (WatchService watch = FileSystems.getDefault().newWatchService()) {
            dir.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
            if (!dir.equals(file.getParent()) && Files.isDirectory(file.getParent())) {
                file.getParent().register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
            }
            while (true) {
                List<String> lines = Files.isRegularFile(file) ? Files.readAllLines(file) : List.of();
                if (lines.size() >= count) {
                    return lines;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(file + ": " + lines.size() + " audit records after " + TIMEOUT + ", expected " + count);
                }
                // a change (or a second, for a directory created after we began watching) before looking again
                var key = watch.poll(1, TimeUnit.SECONDS);
                if (key != null) {
                    key.pollEvents();
                    key.reset();
                }
                if (Files.isDirectory(file.getParent()) && !dir.equals(file.getParent())) {
                    dir = file.getParent();
                    dir.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
                }
            }
        }
    }
}
