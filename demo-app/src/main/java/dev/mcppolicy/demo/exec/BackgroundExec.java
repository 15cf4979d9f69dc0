package dev.mcppolicy.demo.exec;

import java.time.Instant;

/**
 * One background command as a caller sees it at one moment.
 *
 * @param exitCode the exit status once the process has ended, else {@code null}
 * @param output the output from the offset asked for (empty in listings)
 * @param nextOffset the offset to ask for next time
 * @param truncated whether output past the server's limit was dropped
 */
public record BackgroundExec(
        String execId, String command, ExecStatus status, Integer exitCode, Instant startedAt, String output,
        int offset, int nextOffset, boolean truncated) {
}
