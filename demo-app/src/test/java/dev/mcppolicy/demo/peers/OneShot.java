package dev.mcppolicy.demo.peers;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A command that runs to its end: its stdout and stderr go to files ({@code NAME.out}, {@code NAME.err}
 * in a work directory, kept for whoever reads a failure), and whatever it started is stopped when it
 * returns, even when it hangs.
 */
record OneShot(List<String> command, int exitCode, String stdout, String stderr) {
    static OneShot run(List<String> command, Path cwd, Path workDir, String name, Duration timeout)
            throws IOException, InterruptedException {
        return run(command, cwd, null, workDir, name, timeout);
    }

    /** The same, with exactly {@code environment} as the process's environment (null: this JVM's). */
    static OneShot run(List<String> command, Path cwd, Map<String, String> environment, Path workDir, String name,
            Duration timeout) throws IOException, InterruptedException {
        Path out = workDir.resolve(name + ".out");
        Path err = workDir.resolve(name + ".err");
        ProcessBuilder builder = new ProcessBuilder(command);
        if (environment != null) {
            builder.environment().clear();
            builder.environment().putAll(environment);
        }
        Process process;
        try {
            process = builder
                    .directory(cwd.toFile())
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
        } catch (IOException e) {
            throw new AssertionError("cannot start " + command.get(0) + " (" + e.getMessage() + ")" + Peers.INSTALL_HINT, e);
        }
        try {
            process.getOutputStream().close();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(String.join(" ", command) + " did not end within " + timeout
                        + "; output so far in " + out + " and " + err);
            }
            return new OneShot(command, process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            destroyTree(process);
        }
    }

    /** Stops a process and everything it started: children first, so none is left behind orphaned. */
    static void destroyTree(Process process) throws InterruptedException {
        List<ProcessHandle> descendants = process.descendants().toList();
        descendants.forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        for (ProcessHandle child : descendants) {
            try {
                child.onExit().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                child.destroyForcibly();
            }
        }
    }

    /** The JSON object the command printed, once it ended well. */
    Map<String, Object> result() throws IOException {
        if (exitCode != 0) {
            throw new AssertionError("expected exit status 0 from " + describe());
        }
        return McpJsonDefaults.getMapper().readValue(stdout, new TypeRef<Map<String, Object>>() {
        });
    }

    String describe() {
        return String.join(" ", command) + "\nexit " + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
    }
}
