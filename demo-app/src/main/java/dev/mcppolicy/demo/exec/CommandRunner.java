package dev.mcppolicy.demo.exec;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Runs shell commands to completion in the sandbox, each within a timeout (the {@code run_command} tool). */
public final class CommandRunner {
    /** Bytes kept of each of stdout and stderr. */
    public static final int OUTPUT_LIMIT = 64 * 1024;
    private static final long DRAIN_GRACE_MILLIS = 2_000;

    private final Path workingDirectory;

    public CommandRunner(Path workingDirectory) {
        this.workingDirectory = workingDirectory;
    }

    public CommandResult run(String command, Duration timeout) throws IOException, InterruptedException {
        long started = System.nanoTime();
        Process process = Shell.start(workingDirectory, command, false);
        CapturedStream stdout = CapturedStream.drain(process.getInputStream(), OUTPUT_LIMIT, "run_command-stdout");
        CapturedStream stderr = CapturedStream.drain(process.getErrorStream(), OUTPUT_LIMIT, "run_command-stderr");
        boolean finished;
        try {
            finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            if (process.isAlive()) {
                Shell.killTree(process.toHandle());
            }
        }
        Integer exitCode = finished ? process.exitValue() : null;
        String out = stdout.text(DRAIN_GRACE_MILLIS);
        String err = stderr.text(DRAIN_GRACE_MILLIS);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        return new CommandResult(command, exitCode, out, err, !finished, stdout.truncated() || stderr.truncated(),
                millis);
    }
}
