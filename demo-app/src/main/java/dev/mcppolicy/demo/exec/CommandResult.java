package dev.mcppolicy.demo.exec;

/**
 * What a finished synchronous command produced.
 *
 * @param exitCode the exit status, or {@code null} when the command was killed for running too long
 * @param timedOut whether the timeout killed it
 * @param truncated whether stdout or stderr was longer than the server keeps
 */
public record CommandResult(
        String command, Integer exitCode, String stdout, String stderr, boolean timedOut, boolean truncated,
        long durationMillis) {
}
