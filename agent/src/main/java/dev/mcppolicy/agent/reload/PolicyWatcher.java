package dev.mcppolicy.agent.reload;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicyReader;
import dev.mcppolicy.agent.PolicySnapshot;
import dev.mcppolicy.agent.status.StartupSummary;
import dev.mcppolicy.json.CanonicalJson;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Hot reload (SPEC §7): watches the policy file and puts each valid new version in force whole, between
 * calls ({@link PolicyHolder#replace}; a call holding the old snapshot finishes with it), on the old
 * engine's rate-limit store, so counters keep their state and a changed {@code max} or {@code window}
 * applies to the counts already made.
 *
 * <p>It watches the file's directory (so it sees an in-place write, a write-to-temp-then-rename as
 * editors and {@code sed -i} do, and Kubernetes' ConfigMap swap of the {@code ..data} symlink), and also
 * checks the file every {@code reload_interval}, for file systems that send no events. The events are
 * subscribed to after the first interval, which goes by the file's fingerprint alone. A burst of
 * events is taken as one change once the directory has been quiet for {@value #QUIET_MILLIS} ms. A
 * change is what the file's identity, size or modification time says; a version whose bytes hash like
 * the policy in force is no reload. An invalid version is rejected with every error and the policy in
 * force stays; a removed file keeps it too, with one WARN. Each outcome is one {@code [mcp-policy]} line.
 *
 * <p>Runs on its own daemon thread; the decision path never waits for it (one volatile read in the holder).
 */
public final class PolicyWatcher extends Thread {
    static final long QUIET_MILLIS = 100;
    /** However busy the directory is, a change is looked at within this long of its first event. */
    static final long MOST_DEBOUNCE_MILLIS = 1_000;

    private final PolicyHolder holder;
    private final Path file;
    private final Duration interval;
    private final StartupSummary summary;
    private final Clock clock;
    private Fingerprint seen;
    private String inForce;
    private String lastRejected;
    private boolean removed;

    public PolicyWatcher(PolicyHolder holder, Path file, Duration interval, StartupSummary summary, Clock clock) {
        super("mcp-policy-reload");
        setDaemon(true);
        this.holder = holder;
        this.file = file.toAbsolutePath();
        this.interval = interval;
        this.summary = summary;
        this.clock = clock;
    }

    @Override
    public void run() {
        prime();
        WatchService events = null;
        try {
            // the first interval by the fingerprint alone: the file events' service (its own poller thread, ~5 ms of
            // CPU on a small box) starts once the app is past its own start, not in the middle of it (issue 16)
            if (awaitChange(null)) {
                check();
            }
            events = watch();
            while (true) {
                if (awaitChange(events)) {
                    check();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            Diagnostics.error("policy reload stopped: " + t + "; the policy in force stays");
        } finally {
            close(events);
        }
    }

    /** Takes the policy in force and the file as they are now as the starting point. */
    void prime() {
        PolicySnapshot loaded = holder.current();
        inForce = loaded.engine() == null ? null : loaded.engine().policy().sha256();
        seen = Fingerprint.of(file);
        removed = seen.missing();
    }

    /** Whether the file looks changed: after a quiet burst of directory events, or at the interval. */
    boolean awaitChange(WatchService events) throws InterruptedException {
        if (events == null) {
            Thread.sleep(interval.toMillis());
        } else if (take(events, interval.toMillis())) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MOST_DEBOUNCE_MILLIS);
            while (take(events, QUIET_MILLIS) && System.nanoTime() < deadline) {
                // more events: wait until the writer is done
            }
        }
        Fingerprint now = Fingerprint.of(file);
        if (now.equals(seen)) {
            return false;
        }
        seen = now;
        return true;
    }

    /** Takes the events of one key within {@code millis}; whether there were any. */
    private static boolean take(WatchService events, long millis) throws InterruptedException {
        WatchKey key;
        try {
            key = events.poll(millis, TimeUnit.MILLISECONDS);
        } catch (ClosedWatchServiceException e) {
            Thread.sleep(millis);
            return false;
        }
        if (key == null) {
            return false;
        }
        key.pollEvents();
        key.reset();
        return true;
    }

    /** Reads the file that looks changed and puts it in force, or says why not. */
    void check() {
        if (seen.missing()) {
            if (!removed) {
                removed = true;
                summary.policyFileRemoved(file, inForce);
            }
            return;
        }
        removed = false;
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return; // gone or unreadable between the look and the read: the next look sees it
        }
        String sha256 = CanonicalJson.sha256Hex(bytes);
        if (sha256.equals(inForce)) {
            return;
        }
        PolicySnapshot next = PolicyReader.reread(file, bytes, holder.current(), clock);
        if (next.engine() != null) {
            String previous = inForce;
            holder.replace(next);
            inForce = sha256;
            lastRejected = null;
            summary.policyReloaded(file, previous, next.engine().policy());
            return;
        }
        if (!Fingerprint.of(file).equals(seen)) {
            return; // still being written: judge the version the writer finishes
        }
        if (!sha256.equals(lastRejected)) {
            lastRejected = sha256;
            summary.policyReloadRejected(file, sha256, inForce, next.unavailableDetails());
        }
    }

    WatchService watch() {
        Path directory = file.getParent();
        try {
            WatchService service = directory.getFileSystem().newWatchService();
            directory.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_DELETE);
            return service;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            Diagnostics.debug("policy reload: no file events for " + directory + " (" + e + "); checking every " + interval.toMillis() + " ms");
            return null;
        }
    }

    private static void close(WatchService events) {
        if (events != null) {
            try {
                events.close();
            } catch (IOException ignored) {
                // the thread is ending anyway
            }
        }
    }

    /**
     * What the file looks like without reading it: the file it resolves to (a symlink swap changes it),
     * its key, size and modification time; or missing. A plain class, not a record: a record's {@code equals}
     * is bootstrapped through method handles, which cost the first comparison (often during the app's start,
     * when the app writes a log file beside the policy) ~40 spun method-handle classes (issue 16).
     */
    static final class Fingerprint {
        private final String target;
        private final Object key;
        private final long size;
        private final long modified;

        private Fingerprint(String target, Object key, long size, long modified) {
            this.target = target;
            this.key = key;
            this.size = size;
            this.modified = modified;
        }

        static Fingerprint of(Path file) {
            try {
                Path target = file.toRealPath();
                BasicFileAttributes attributes = Files.readAttributes(target, BasicFileAttributes.class);
                return new Fingerprint(target.toString(), attributes.fileKey(), attributes.size(),
                        attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS));
            } catch (NoSuchFileException e) {
                return new Fingerprint(null, null, -1, -1);
            } catch (IOException | SecurityException e) {
                return new Fingerprint(null, Objects.toString(e.getMessage()), -1, -1);
            }
        }

        boolean missing() {
            return target == null && key == null;
        }

        @Override
        public boolean equals(Object other) {
            if (!(other instanceof Fingerprint)) {
                return false;
            }
            Fingerprint that = (Fingerprint) other;
            return size == that.size && modified == that.modified && Objects.equals(target, that.target) && Objects.equals(key, that.key);
        }

        @Override
        public int hashCode() {
            return Objects.hash(target, key, size, modified);
        }

        @Override
        public String toString() {
            return "Fingerprint[target=" + target + ", key=" + key + ", size=" + size + ", modified=" + modified + "]";
        }
    }
}
