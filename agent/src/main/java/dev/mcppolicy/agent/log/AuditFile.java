package dev.mcppolicy.agent.log;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.log.DecisionRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The JSON-lines audit file (SPEC §2 {@code audit}): one object per decision, rotated to {@code .1} by
 * size. A call never waits for the disk: {@link #append} hands the record to a bounded queue that one
 * daemon thread ({@code mcp-policy-audit}, started with the first record) writes out, so a slow, full
 * or vanished file can neither block a call nor fail it. When the queue is full a record is dropped and
 * counted; write errors are reported (once per kind, then counted) and the file is reopened for the
 * next record. A file deleted under the agent (or its directory) is created again. Records still queued when the JVM exits are written by a shutdown hook, for up to
 * {@link #DRAIN_MILLIS} ms.
 */
final class AuditFile implements DecisionListener {
    static final long ROTATE_BYTES = 50L * 1024 * 1024;
    static final int QUEUE = 10_000;
    static final long DRAIN_MILLIS = 2_000;

    private final Path path;
    private final BlockingQueue<String> queue = new ArrayBlockingQueue<>(QUEUE);
    private volatile Thread writer;
    private OutputStream out;
    private long size;

    AuditFile(Path path) {
        this.path = path.toAbsolutePath();
    }

    @Override
    public void decided(DecisionRecord record, ClassLoader sdkLoader) {
        append(record.toJson());
    }

    @Override
    public String name() {
        return "audit file";
    }

    /** Queues one record; never blocks, never throws. */
    void append(String json) {
        if (!queue.offer(json)) {
            Diagnostics.adviceError("audit file " + path, "queue of " + QUEUE + " records full",
                    new IllegalStateException("audit record dropped"));
            return;
        }
        if (writer == null) {
            start();
        }
    }

    private synchronized void start() {
        if (writer != null) {
            return;
        }
        writer = new Thread(this::writeForever, "mcp-policy-audit");
        writer.setDaemon(true);
        writer.start();
        Runtime.getRuntime().addShutdownHook(new Thread(this::drain, "mcp-policy-audit-drain"));
    }

    private void writeForever() {
        List<String> batch = new ArrayList<>();
        while (true) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                return;
            }
            queue.drainTo(batch, 255);
            write(batch);
            batch.clear();
        }
    }

    private void drain() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
        List<String> batch = new ArrayList<>();
        while (!queue.isEmpty() && System.nanoTime() < deadline) {
            queue.drainTo(batch, 256);
            write(batch);
            batch.clear();
        }
    }

    /** Writes a batch with one flush; a failure loses this batch, is reported, and the next batch reopens the file. */
    private synchronized void write(List<String> records) {
        try {
            if (out != null && !Files.exists(path)) {
                // deleted, or its directory removed: writing on would feed an unlinked file nobody can read
                Diagnostics.warn("audit file " + path + " was removed; it is created again");
                close();
            }
            if (out == null) {
                open();
            }
            StringBuilder text = new StringBuilder();
            for (String record : records) {
                text.append(record).append('\n');
            }
            byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            if (size + bytes.length > ROTATE_BYTES && size > 0) {
                out.close();
                Files.move(path, path.resolveSibling(path.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
                open();
            }
            out.write(bytes);
            out.flush();
            size += bytes.length;
        } catch (IOException | RuntimeException e) {
            Diagnostics.adviceError("audit file " + path, records.size() + " records not written", e);
            close();
        }
    }

    private void open() throws IOException {
        if (path.getParent() != null) {
            Files.createDirectories(path.getParent());
        }
        out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        size = Files.size(path);
    }

    private void close() {
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException e) {
            // the stream is given up either way
        }
        out = null;
    }
}
