package dev.mcppolicy.demo.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandRunnerTest {
    @TempDir
    Path root;

    @Test
    void keepsAtMostTheLimitOfAChattyCommandsOutput() throws Exception {
        CommandResult result = new CommandRunner(root).run("head -c 200000 /dev/zero | tr '\\0' x",
                Duration.ofSeconds(30));

        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout()).hasSize(CommandRunner.OUTPUT_LIMIT);
        assertThat(result.truncated()).isTrue();
    }

    @Test
    void killsWhatTheCommandStartedWhenItTimesOut() throws Exception {
        CommandResult result = new CommandRunner(root).run("sleep 60 & sleep 60", Duration.ofMillis(500));

        assertThat(result.timedOut()).isTrue();
        assertThat(result.exitCode()).isNull();
        assertThat(result.durationMillis()).isLessThan(10_000);
    }
}
