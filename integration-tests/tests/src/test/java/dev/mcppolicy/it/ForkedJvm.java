package dev.mcppolicy.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A JVM started for a test: its stdout and stderr lines are collected as they come, its stdin is ours. */
final class ForkedJvm implements AutoCloseable {
    static final Duration TIMEOUT = Duration.ofSeconds(90);

    private final String name;
    private final Process process;
    private final Writer stdin;
    private final List<String> stdout = new ArrayList<>();
    private final List<String> stderr = new ArrayList<>();

    private ForkedJvm(String name, Process process) {
        this.name = name;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        pump(process.getInputStream(), stdout, name + "-out");
        pump(process.getErrorStream(), stderr, name + "-err");
    }

    static ForkedJvm start(String name, Path workingDirectory, List<String> jvmArgs, String classPath, String mainClass,
            List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(args);
        workingDirectory.toFile().mkdirs();
        return new ForkedJvm(name, new ProcessBuilder(command).directory(workingDirectory.toFile()).start());
    }

    /** Any program (a Node.js peer, say), watched as a forked JVM is. */
    static ForkedJvm startProcess(String name, Path workingDirectory, List<String> command) throws IOException {
        workingDirectory.toFile().mkdirs();
        return new ForkedJvm(name, new ProcessBuilder(command).directory(workingDirectory.toFile()).start());
    }

    /** The JVM the forked apps run on: {@code -Dit.java.home=...} (CI runs a subset on Java 25), else this one. */
    static String javaExecutable() {
        return Path.of(System.getProperty("it.java.home", System.getProperty("java.home")), "bin", "java").toString();
    }

    private static void pump(InputStream in, List<String> lines, String threadName) {
        Thread thread = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    synchronized (lines) {
                        lines.add(line);
                        lines.notifyAll();
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    void send(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    /** Closes the process's stdin: a stdio client that went away. */
    void closeStdin() throws IOException {
        stdin.close();
    }

    /**
     * Writes all {@code lines} and flushes once: a client that does not wait for any answer. Fails,
     * instead of hanging, when the process stops reading (a server whose session ended).
     */
    void sendAll(List<String> lines) throws IOException, InterruptedException {
        StringBuilder all = new StringBuilder();
        for (String line : lines) {
            all.append(line).append('\n');
        }
        IOException[] failed = new IOException[1];
        Thread writer = new Thread(() -> {
            try {
                stdin.write(all.toString());
                stdin.flush();
            } catch (IOException e) {
                failed[0] = e;
            }
        }, name + "-in");
        writer.setDaemon(true);
        writer.start();
        writer.join(TIMEOUT.toMillis());
        if (writer.isAlive() || failed[0] != null) {
            throw new AssertionError(name + " did not read its input (" + (failed[0] != null ? failed[0] : "still blocked after "
                    + TIMEOUT) + ")\n" + dump());
        }
    }

    /**
     * Waits until {@code count} stdout lines match, or until no stdout line at all has come for
     * {@code quiet} (what will ever come has then come); returns the matching lines seen.
     */
    List<String> awaitStdoutCount(Predicate<String> match, int count, Duration quiet) {
        return awaitCount(stdout, match, count, quiet);
    }

    /** As {@link #awaitStdoutCount}, on stderr. */
    List<String> awaitStderrCount(Predicate<String> match, int count, Duration quiet) {
        return awaitCount(stderr, match, count, quiet);
    }

    private List<String> awaitCount(List<String> lines, Predicate<String> match, int count, Duration quiet) {
        long overall = System.nanoTime() + TIMEOUT.toNanos();
        synchronized (lines) {
            int seen = lines.size();
            long quietUntil = System.nanoTime() + quiet.toNanos();
            while (true) {
                List<String> matching = new ArrayList<>();
                for (String line : lines) {
                    if (match.test(line)) {
                        matching.add(line);
                    }
                }
                long now = System.nanoTime();
                if (lines.size() != seen) {
                    seen = lines.size();
                    quietUntil = now + quiet.toNanos();
                }
                if (matching.size() >= count || now >= quietUntil || now >= overall || !process.isAlive()) {
                    return matching;
                }
                try {
                    lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(Math.min(quietUntil, overall) - now)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
        }
    }

    List<String> stdout() {
        return snapshot(stdout);
    }

    List<String> stderr() {
        return snapshot(stderr);
    }

    /** Waits for the first stdout line at or after {@code from} that matches; fails with both streams on timeout. */
    String awaitStdout(int from, Predicate<String> match) {
        return await(stdout, from, match);
    }

    String awaitStderr(Predicate<String> match) {
        return await(stderr, 0, match);
    }

    private String await(List<String> lines, int from, Predicate<String> match) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        synchronized (lines) {
            while (true) {
                for (int i = from; i < lines.size(); i++) {
                    if (match.test(lines.get(i))) {
                        return lines.get(i);
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!process.isAlive() && drained())) {
                    throw new AssertionError(name + ": expected line not seen within " + TIMEOUT
                            + (process.isAlive() ? "" : " (process exited " + process.exitValue() + ")") + "\n" + dump());
                }
                try {
                    lines.wait(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, 200));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
        }
    }

    private boolean drained() {
        return !process.isAlive();
    }

    int waitForExit() throws InterruptedException {
        if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError(name + " did not exit\n" + dump());
        }
        return process.exitValue();
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String dump() {
        return "---- " + name + " stdout\n" + String.join("\n", stdout()) + "\n---- " + name + " stderr\n" + String.join("\n", stderr());
    }

    private static List<String> snapshot(List<String> lines) {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
