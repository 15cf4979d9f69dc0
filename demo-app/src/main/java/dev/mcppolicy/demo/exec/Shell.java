package dev.mcppolicy.demo.exec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Starts {@code /bin/sh -c COMMAND} in a directory, with no stdin, as the demo's tools do. */
final class Shell {
    private Shell() {
    }

    static Process start(Path workingDirectory, String command, boolean mergeStderr) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(List.of("/bin/sh", "-c", command))
                .directory(workingDirectory.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectErrorStream(mergeStderr);
        return builder.start();
    }

    /** Kills the process and everything it started, so no grandchild keeps running or holds a pipe. */
    static void killTree(ProcessHandle process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
