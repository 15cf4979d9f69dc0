package dev.mcppolicy.demo.exec;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The merged stdout and stderr of a background exec, addressed by character offset so that a caller
 * can ask for "what came after what I have already seen". The first {@link #LIMIT} characters are
 * kept; later output is counted but dropped.
 */
final class ExecOutput {
    static final int LIMIT = 1024 * 1024;

    private final StringBuilder text = new StringBuilder();
    private long produced;
    private boolean closed;

    /** Reads the stream to its end on the calling thread. */
    void pump(InputStream stream) {
        char[] buffer = new char[4096];
        try (Reader reader = new InputStreamReader(stream, StandardCharsets.UTF_8)) {
            int read;
            while ((read = reader.read(buffer)) >= 0) {
                append(buffer, read);
            }
        } catch (IOException e) {
            // The process was killed and its pipe closed: the output ends here.
        } finally {
            close();
        }
    }

    private synchronized void append(char[] buffer, int length) {
        int room = LIMIT - text.length();
        text.append(buffer, 0, Math.max(0, Math.min(room, length)));
        produced += length;
        notifyAll();
    }

    private synchronized void close() {
        closed = true;
        notifyAll();
    }

    /**
     * Waits until there is output after {@code offset}, the output has ended, or {@code waitMillis}
     * passed, then returns the kept output from {@code offset} on.
     */
    synchronized Slice since(int offset, long waitMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        while (text.length() <= offset && !closed) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                break;
            }
            wait(left);
        }
        int from = Math.min(Math.max(offset, 0), text.length());
        return new Slice(text.substring(from), from, text.length(), produced > text.length());
    }

    /** Output from {@code offset} to {@code nextOffset}; {@code truncated} when output past the limit was dropped. */
    record Slice(String text, int offset, int nextOffset, boolean truncated) {
        static final Slice EMPTY = new Slice("", 0, 0, false);
    }
}
