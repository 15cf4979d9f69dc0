package dev.mcppolicy.demo.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackgroundExecsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path root;

    private BackgroundExecs execs;

    @AfterEach
    void killEverything() {
        execs.close();
    }

    @Test
    void killsAnExecThatReachesItsTimeLimit() throws Exception {
        execs = new BackgroundExecs(root);
        String execId = execs.start("echo started; exec sleep 60", Duration.ofMillis(300)).execId();

        BackgroundExec ended = awaitEnd(execId);

        assertThat(ended.status()).isEqualTo(ExecStatus.TIMED_OUT);
        assertThat(ended.output()).isEqualTo("started\n");
    }

    @Test
    void answersUnknownExecIdsWithNothing() throws Exception {
        execs = new BackgroundExecs(root);

        assertThat(execs.status("exec-42", 0, Duration.ZERO)).isEmpty();
        assertThat(execs.kill("exec-42")).isEmpty();
    }

    @Test
    void leavesAFinishedExecAsItEnded() throws Exception {
        execs = new BackgroundExecs(root);
        String execId = execs.start("exit 4", WAIT).execId();
        awaitEnd(execId);

        BackgroundExec afterKill = execs.kill(execId).orElseThrow();

        assertThat(afterKill.status()).isEqualTo(ExecStatus.EXITED);
        assertThat(afterKill.exitCode()).isEqualTo(4);
    }

    @Test
    void listsExecsInTheOrderTheyStarted() throws Exception {
        execs = new BackgroundExecs(root);
        for (int i = 0; i < 11; i++) {
            execs.start("exit 0", WAIT);
        }

        assertThat(execs.list()).extracting(BackgroundExec::execId)
                .startsWith("exec-1", "exec-2").endsWith("exec-10", "exec-11");
    }

    /** Long-polls the exec's status until its process has ended, as a caller of sandbox_exec_status would. */
    private BackgroundExec awaitEnd(String execId) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        BackgroundExec exec;
        do {
            exec = execs.status(execId, Integer.MAX_VALUE, Duration.ofMillis(200)).orElseThrow();
        } while (exec.status() == ExecStatus.RUNNING && System.nanoTime() < deadline);
        return execs.status(execId, 0, Duration.ZERO).orElseThrow();
    }
}
