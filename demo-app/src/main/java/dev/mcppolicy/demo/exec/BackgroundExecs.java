package dev.mcppolicy.demo.exec;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Commands started in the sandbox that outlive the call that started them (the
 * {@code sandbox_exec_*} tools). Each runs until it exits, is killed, or reaches its time limit.
 */
public final class BackgroundExecs implements AutoCloseable {
    private static final long KILL_WAIT_MILLIS = 5_000;

    private final Path workingDirectory;
    private final Map<String, Entry> execs = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final ScheduledExecutorService timeouts = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "sandbox-exec-timeouts");
        thread.setDaemon(true);
        return thread;
    });

    public BackgroundExecs(Path workingDirectory) {
        this.workingDirectory = workingDirectory;
    }

    /** Starts {@code command} and returns at once; the process is killed after {@code timeLimit}. */
    public BackgroundExec start(String command, Duration timeLimit) throws IOException {
        String execId = "exec-" + ids.incrementAndGet();
        Process process = Shell.start(workingDirectory, command, true);
        Entry entry = new Entry(execId, command, process, Instant.now());
        execs.put(execId, entry);
        Thread pump = new Thread(() -> entry.output.pump(process.getInputStream()), execId + "-output");
        pump.setDaemon(true);
        pump.start();
        timeouts.schedule(() -> entry.stop(ExecStatus.TIMED_OUT), timeLimit.toMillis(), TimeUnit.MILLISECONDS);
        return entry.snapshot(ExecOutput.Slice.EMPTY);
    }

    /**
     * The exec's state and its output after {@code offset}, waiting up to {@code wait} for new output
     * or the end of the process.
     */
    public Optional<BackgroundExec> status(String execId, int offset, Duration wait) throws InterruptedException {
        Entry entry = execs.get(execId);
        if (entry == null) {
            return Optional.empty();
        }
        ExecOutput.Slice slice = entry.output.since(offset, wait.toMillis());
        return Optional.of(entry.snapshot(slice));
    }

    /** Every exec started so far, oldest first, without output. */
    public List<BackgroundExec> list() {
        List<BackgroundExec> all = new ArrayList<>();
        for (Entry entry : execs.values()) {
            all.add(entry.snapshot(ExecOutput.Slice.EMPTY));
        }
        all.sort((a, b) -> Integer.compare(number(a.execId()), number(b.execId())));
        return all;
    }

    /** Kills the exec and what it started, waiting briefly for it to end; a finished exec is left as it is. */
    public Optional<BackgroundExec> kill(String execId) throws InterruptedException {
        Entry entry = execs.get(execId);
        if (entry == null) {
            return Optional.empty();
        }
        entry.stop(ExecStatus.KILLED);
        entry.awaitExit(KILL_WAIT_MILLIS);
        return Optional.of(entry.snapshot(ExecOutput.Slice.EMPTY));
    }

    /** Kills every exec still running; the server calls this on its way out. */
    @Override
    public void close() {
        execs.values().forEach(entry -> entry.stop(ExecStatus.KILLED));
        timeouts.shutdownNow();
    }

    private static int number(String execId) {
        return Integer.parseInt(execId.substring(execId.indexOf('-') + 1));
    }

    private static final class Entry {
        final String execId;
        final String command;
        final Process process;
        final Instant startedAt;
        final ExecOutput output = new ExecOutput();
        private ExecStatus stoppedAs;

        Entry(String execId, String command, Process process, Instant startedAt) {
            this.execId = execId;
            this.command = command;
            this.process = process;
            this.startedAt = startedAt;
        }

        synchronized void stop(ExecStatus reason) {
            if (process.isAlive() && stoppedAs == null) {
                stoppedAs = reason;
                Shell.killTree(process.toHandle());
            }
        }

        void awaitExit(long millis) throws InterruptedException {
            try {
                process.onExit().get(millis, TimeUnit.MILLISECONDS);
            } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
                // Still dying: the snapshot then says running, which is the truth.
            }
        }

        synchronized BackgroundExec snapshot(ExecOutput.Slice slice) {
            boolean alive = process.isAlive();
            ExecStatus status = alive ? ExecStatus.RUNNING : stoppedAs != null ? stoppedAs : ExecStatus.EXITED;
            Integer exitCode = alive ? null : process.exitValue();
            return new BackgroundExec(execId, command, status, exitCode, startedAt, slice.text(), slice.offset(),
                    slice.nextOffset(), slice.truncated());
        }
    }
}
