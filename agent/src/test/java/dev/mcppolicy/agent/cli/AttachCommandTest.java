package dev.mcppolicy.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The command's arguments and how an attach API failure is told; attaching itself is AttachIT's. */
class AttachCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final AttachCommand command = new AttachCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    private final AttachCommand.Target target = new AttachCommand.Target(ProcessHandle.current().pid(), "/usr/bin/java", 1000, 1000, true);

    @Test
    void argumentsThatNameNoJvmAreUsageErrors() {
        assertThat(command.attach(new String[] {})).isEqualTo(AttachCommand.Exit.USAGE);
        assertThat(command.attach(new String[] {"0"})).isEqualTo(AttachCommand.Exit.USAGE);
        assertThat(command.attach(new String[] {"12", "13"})).isEqualTo(AttachCommand.Exit.USAGE);
        assertThat(command.attach(new String[] {"12", "--policy"})).isEqualTo(AttachCommand.Exit.USAGE);
        assertThat(command.attach(new String[] {"12", "--force"})).isEqualTo(AttachCommand.Exit.USAGE);
        assertThat(command.attach(new String[] {"12", "audit=a,b"})).isEqualTo(AttachCommand.Exit.USAGE);
        assertThat(errors()).contains("attach: which JVM?", "attach: not a process id: 0", "attach: one PID only, not also 13",
                "attach: --policy needs a file", "attach: unknown option --force", "cannot contain ','", AttachCommand.USAGE);
    }

    @Test
    void anUnknownOptionIsRefusedBeforeAnythingIsAttached() {
        assertThat(command.attach(new String[] {"12", "polcy=x.json"})).isEqualTo(AttachCommand.Exit.USAGE);
        assertThat(errors()).contains("polcy");
    }

    @Test
    void aMissingPolicyFileIsRefusedBeforeAnythingIsAttached() {
        assertThat(command.attach(new String[] {"12", "--policy", "/nonexistent/p.json"})).isEqualTo(AttachCommand.Exit.USAGE);
        assertThat(errors()).contains("attach: no policy file /nonexistent/p.json");
    }

    @Test
    void theAttachApisFailuresAreToldApartByWhatTheySay() {
        assertThat(command.explain(target, wrapped(new IllegalStateException("The VM does not support the attach mechanism"))))
                .isEqualTo(AttachCommand.Exit.ATTACH_DISABLED);
        assertThat(command.explain(target, wrapped(new IOException("Unable to open socket file /proc/4242/root/tmp/.java_pid4242: "
                + "target process 4242 doesn't respond within 10500ms or HotSpot VM not loaded"))))
                .isEqualTo(AttachCommand.Exit.ATTACH_DISABLED);
        assertThat(command.explain(target, wrapped(new IllegalStateException("Dynamic agent loading is not enabled. "
                + "Use -XX:+EnableDynamicAgentLoading to launch target VM.")))).isEqualTo(AttachCommand.Exit.ATTACH_DISABLED);
        assertThat(command.explain(target, wrapped(new IOException("well-known file /tmp/.java_pid4242 is not secure: "
                + "file should be owned by the current user (which is 1000) but is owned by 0")))).isEqualTo(AttachCommand.Exit.ANOTHER_USER);
        assertThat(command.explain(target, new IllegalStateException("No compatible attachment provider is available")))
                .isEqualTo(AttachCommand.Exit.NO_ATTACH_MODULE);
        assertThat(command.explain(target, wrapped(new IOException("something else")))).isEqualTo(AttachCommand.Exit.ATTACH_FAILED);
        assertThat(errors()).doesNotContain("\tat ").contains("InvocationTargetException / IOException: something else");
    }

    /** As Byte Buddy hands them on: the attach API's exception inside a reflective call inside its own. */
    private static Throwable wrapped(Throwable cause) {
        return new IllegalStateException("Error during attachment using: ForModularizedVm", new InvocationTargetException(cause));
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
