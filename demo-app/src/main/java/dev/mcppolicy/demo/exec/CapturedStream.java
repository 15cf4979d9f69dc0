package dev.mcppolicy.demo.exec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Drains one output stream of a process on its own daemon thread, keeping at most {@code limit}
 * bytes: a chatty command can neither block on a full pipe nor fill the server's memory.
 */
final class CapturedStream {
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final int limit;
    private boolean truncated;

    private CapturedStream(int limit) {
        this.limit = limit;
    }

    static CapturedStream drain(InputStream stream, int limit, String threadName) {
        CapturedStream captured = new CapturedStream(limit);
        Thread reader = new Thread(() -> captured.readAll(stream), threadName);
        reader.setDaemon(true);
        reader.start();
        return captured;
    }

    private void readAll(InputStream stream) {
        byte[] buffer = new byte[8192];
        try (stream) {
            int read;
            while ((read = stream.read(buffer)) >= 0) {
                keep(buffer, read);
            }
        } catch (IOException e) {
            // The process was killed and its pipe closed under us: what was read so far is the output.
        } finally {
            done.complete(null);
        }
    }

    private synchronized void keep(byte[] buffer, int length) {
        int room = limit - kept.size();
        if (length > room) {
            truncated = true;
        }
        kept.write(buffer, 0, Math.max(0, Math.min(room, length)));
    }

    /** Waits up to {@code millis} for the end of the stream, then returns what was read. */
    String text(long millis) {
        try {
            done.get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // A grandchild still holds the pipe open: answer with what the command wrote so far.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            return kept.toString(StandardCharsets.UTF_8);
        }
    }

    synchronized boolean truncated() {
        return truncated;
    }
}
