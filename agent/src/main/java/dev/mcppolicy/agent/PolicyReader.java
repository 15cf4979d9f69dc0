package dev.mcppolicy.agent;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.EngineOptions;
import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.log.DecisionRecord;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.PolicyParser;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.function.BiConsumer;

/** Reads a policy file into a {@link PolicySnapshot}; never throws: a missing or invalid file gives an unavailable one. */
public final class PolicyReader {
    /**
     * What the rehearsal renders of each made-up decision: what the running agent's listeners render
     * ({@link #rehearseAs}), or every form when no agent set it (tests, the CLI's tools).
     */
    private static volatile Renderings rehearsed = new Renderings(true, true, true, null);

    private PolicyReader() {
    }

    /**
     * Has later rehearsals render only what the configured listeners render of a real decision: the line
     * unless {@code log=off}, the audit record with {@code audit}, the admin entry with {@code admin}, each with
     * or without argument values as {@code log_arguments} says. On a cold JVM the two JSON forms cost ~15 ms of the
     * ~24 ms rehearsal (the timestamp's formatter, mostly), which a JVM that writes neither now skips (issue 16).
     */
    static void rehearseAs(boolean line, boolean audit, boolean admin, boolean logArguments) {
        rehearsed = new Renderings(line, audit, admin, logArguments);
    }

    /**
     * @param path the policy file, or {@code null} when none was found
     * @param searched where it was looked for, for the message when {@code path} is {@code null}
     */
    public static PolicySnapshot read(Path path, String searched, boolean failOpen, Clock clock) {
        return read(path, searched, failOpen, clock, null);
    }

    /**
     * {@link #read(Path, String, boolean, Clock)} on {@code options} (the configured store and
     * {@code store_fail}; {@code null}: a new in-memory store), which the snapshot keeps for reloads.
     */
    public static PolicySnapshot read(Path path, String searched, boolean failOpen, Clock clock, EngineOptions options) {
        PolicySnapshot read = readOn(path, searched, failOpen, clock, options);
        return options == null ? read : read.withOptions(options);
    }

    private static PolicySnapshot readOn(Path path, String searched, boolean failOpen, Clock clock, EngineOptions options) {
        if (path == null) {
            return PolicySnapshot.unavailable("no policy file found (looked for " + searched + ")", null, null, failOpen);
        }
        if (!Files.isRegularFile(path)) {
            return PolicySnapshot.unavailable("policy file not found: " + path, null, path, failOpen);
        }
        try {
            byte[] bytes = readable(path);
            // a file that cannot be read is parsed by path, which reports it as PolicyParser does
            Policy policy = bytes == null ? PolicyParser.parse(path) : PolicyParser.parse(bytes, PolicyParser.formatOf(path.toString()),
                    path.toString());
            return built(policy, path, failOpen, clock, options, bytes);
        } catch (PolicyException e) {
            return invalid(path, e, failOpen);
        } catch (RuntimeException | LinkageError e) {
            return PolicySnapshot.unavailable("cannot read policy " + path + ": " + e, null, path, failOpen);
        }
    }

    /**
     * A new version of the policy file, already read as {@code bytes}, built on the rate-limit store of
     * {@code previous} (when it has an engine) so counters keep their state: what a reload puts in force,
     * or an unavailable snapshot with every parse error when the new version is invalid.
     */
    public static PolicySnapshot reread(Path path, byte[] bytes, PolicySnapshot previous, Clock clock) {
        EngineOptions options = previous.options();
        PolicySnapshot next = rereadOn(path, bytes, previous, clock, options);
        return options == null ? next : next.withOptions(options);
    }

    private static PolicySnapshot rereadOn(Path path, byte[] bytes, PolicySnapshot previous, Clock clock, EngineOptions options) {
        try {
            Policy policy = PolicyParser.parse(bytes, PolicyParser.formatOf(path.toString()), path.toString());
            return built(policy, path, previous.failOpen(), clock, options, bytes);
        } catch (PolicyException e) {
            return invalid(path, e, previous.failOpen());
        } catch (RuntimeException | LinkageError e) {
            return PolicySnapshot.unavailable("cannot read policy " + path + ": " + e, null, path, previous.failOpen());
        }
    }

    private static byte[] readable(Path path) {
        if (path.getFileSystem() != FileSystems.getDefault()) {
            try {
                return Files.readAllBytes(path);
            } catch (IOException e) {
                return null;
            }
        }
        // java.io, which the JVM has loaded anyway: Files.readAllBytes loads ~40 NIO channel classes that an MCP
        // server has not loaded by its first answer, ~6 ms of the agent's start on a cold JVM (issue 16)
        try (FileInputStream in = new FileInputStream(path.toFile())) {
            return in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    private static PolicySnapshot built(Policy policy, Path path, boolean failOpen, Clock clock, EngineOptions options, byte[] source) {
        PolicyEngine engine = options == null ? PolicyEngine.of(policy, clock) : PolicyEngine.of(policy, clock, options);
        // off the call path: the loader (or reload) thread sets up the counters and rehearses every rule,
        // building (never emitting) what the listeners render of each rehearsed call (rehearseAs)
        engine.warmUp(rehearsed);
        return PolicySnapshot.of(engine, path, failOpen, source == null ? null : new String(source, StandardCharsets.UTF_8));
    }

    /** Builds (never emits) the configured renderings of a rehearsed decision; a named class, as no lambda need be spun for it. */
    private static final class Renderings implements BiConsumer<ToolCall, Decision> {
        private final boolean line;
        private final boolean audit;
        private final boolean admin;
        /** {@code log_arguments}; {@code null}: both ways. */
        private final Boolean logArguments;

        Renderings(boolean line, boolean audit, boolean admin, Boolean logArguments) {
            this.line = line;
            this.audit = audit;
            this.admin = admin;
            this.logArguments = logArguments;
        }

        @Override
        public void accept(ToolCall call, Decision decision) {
            if (logArguments == null || !logArguments) {
                render(call, decision, false);
            }
            if (logArguments == null || logArguments) {
                render(call, decision, true);
            }
        }

        private void render(ToolCall call, Decision decision, boolean withArguments) {
            // as the log makes it: with the line alone, a record without its time (DecisionListener.readsTime)
            DecisionRecord record = new DecisionRecord(audit || admin ? Instant.now() : null, call, decision, 1, withArguments);
            if (line) {
                record.toLine();
            }
            if (audit) {
                record.toJson();
            }
            if (admin) {
                record.toBoundedJson();
            }
        }
    }

    private static PolicySnapshot invalid(Path path, PolicyException e, boolean failOpen) {
        int count = e.errors().size();
        String reason = "invalid policy " + path.getFileName() + " (" + count + (count == 1 ? " error" : " errors")
                + ", listed in the agent's startup output)";
        return PolicySnapshot.unavailable(reason, e.getMessage(), path, failOpen);
    }
}
