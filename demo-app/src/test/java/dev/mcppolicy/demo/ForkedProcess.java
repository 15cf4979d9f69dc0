package dev.mcppolicy.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JVM forked from the demo jar, with its stderr collected line by line so a test can wait for a
 * log line instead of sleeping.
 */
public final class ForkedProcess implements AutoCloseable {
    public static final Path DEMO_JAR = Path.of(System.getProperty("demo.jar", "target/demo-app.jar"));

    private final Process process;
    private final List<String> stderr = new ArrayList<>();
    private final StringBuilder stdout = new StringBuilder();
    private final Thread errorsReader;
    private final Thread outputReader;

    private ForkedProcess(Process process) {
        this.process = process;
        this.errorsReader = new Thread(() -> collect(true), "forked-stderr");
        this.outputReader = new Thread(() -> collect(false), "forked-stdout");
        for (Thread reader : List.of(errorsReader, outputReader)) {
            reader.setDaemon(true);
            reader.start();
        }
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Starts {@code java ARGS...}. */
    public static ForkedProcess java(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(List.of(args));
        return new ForkedProcess(new ProcessBuilder(command).start());
    }

    private void collect(boolean errors) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
                errors ? process.getErrorStream() : process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                synchronized (this) {
                    if (errors) {
                        stderr.add(line);
                    } else {
                        stdout.append(line).append('\n');
                    }
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // The process ended and took its pipe with it.
        }
    }

    /** Waits for a stderr line matching {@code pattern} and returns the match's first group. */
    public synchronized String awaitStderr(Pattern pattern, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int seen = 0;
        while (true) {
            for (; seen < stderr.size(); seen++) {
                Matcher matcher = pattern.matcher(stderr.get(seen));
                if (matcher.find()) {
                    return matcher.groupCount() > 0 ? matcher.group(1) : matcher.group();
                }
            }
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0 || !process.isAlive() && seen == stderr.size()) {
                throw new AssertionError("no stderr line matching " + pattern + " within " + timeout
                        + "; stderr so far:\n" + String.join("\n", stderr));
            }
            wait(Math.min(left, 200));
        }
    }

    /**
     * Waits until {@code count} stderr lines match {@code pattern} (more may follow) and returns the
     * matching lines seen so far.
     */
    public synchronized List<String> awaitStderrLines(Pattern pattern, int count, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> matching = new ArrayList<>();
        int seen = 0;
        while (true) {
            for (; seen < stderr.size(); seen++) {
                if (pattern.matcher(stderr.get(seen)).find()) {
                    matching.add(stderr.get(seen));
                }
            }
            if (matching.size() >= count) {
                return matching;
            }
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0 || !process.isAlive() && seen == stderr.size()) {
                throw new AssertionError(count + " stderr lines matching " + pattern + " expected within " + timeout
                        + ", found " + matching.size() + "; stderr so far:\n" + String.join("\n", stderr));
            }
            wait(Math.min(left, 200));
        }
    }

    /** Waits for the process to end and returns its exit status. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the process did not end within " + timeout + "; stdout so far:\n" + stdout());
        }
        errorsReader.join(TimeUnit.SECONDS.toMillis(10));
        outputReader.join(TimeUnit.SECONDS.toMillis(10));
        return process.exitValue();
    }

    synchronized String stdout() {
        return stdout.toString();
    }

    public synchronized List<String> stderr() {
        return List.copyOf(stderr);
    }

    /** Asks the process to stop (SIGTERM, so its shutdown hooks run), then forces it after a grace period. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
