package dev.mcppolicy.demo.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SandboxTest {
    @TempDir
    Path parent;

    private Sandbox sandbox;

    @BeforeEach
    void createSandbox() throws Exception {
        sandbox = Sandbox.at(parent.resolve("box"));
    }

    @Test
    void resolvesPathsInsideTheRootIncludingOnesNotYetCreated() {
        assertThat(sandbox.resolve("a/b/new.txt")).isEqualTo(sandbox.root().resolve("a/b/new.txt"));
        assertThat(sandbox.resolve("a/../b.txt")).isEqualTo(sandbox.root().resolve("b.txt"));
        assertThat(sandbox.resolve(sandbox.root().resolve("c.txt").toString()))
                .isEqualTo(sandbox.root().resolve("c.txt"));
        assertThat(sandbox.relative(sandbox.resolve("."))).isEqualTo(".");
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", "../box2/x", "a/../../x", "/etc/passwd", "", " "})
    void rejectsPathsLeadingOutsideTheRoot(String path) {
        assertThatThrownBy(() -> sandbox.resolve(path)).isInstanceOf(SandboxEscapeException.class);
    }

    @Test
    void rejectsPathsThroughSymbolicLinksLeadingOutside() throws Exception {
        Files.createSymbolicLink(sandbox.root().resolve("out"), parent);
        Files.createSymbolicLink(sandbox.root().resolve("dangling"), parent.resolve("missing"));

        assertThatThrownBy(() -> sandbox.resolve("out/secret.txt"))
                .isInstanceOf(SandboxEscapeException.class).hasMessageContaining("symbolic link");
        assertThatThrownBy(() -> sandbox.resolve("out"))
                .isInstanceOf(SandboxEscapeException.class);
        assertThatThrownBy(() -> sandbox.resolve("dangling"))
                .isInstanceOf(SandboxEscapeException.class);
    }

    @Test
    void followsSymbolicLinksThatStayInside() throws Exception {
        Files.createDirectories(sandbox.root().resolve("real"));
        Files.createSymbolicLink(sandbox.root().resolve("alias"), sandbox.root().resolve("real"));

        assertThat(sandbox.resolve("alias/file.txt")).isEqualTo(sandbox.root().resolve("alias/file.txt"));
    }

    @Test
    void deletesOnlyATemporaryRoot() throws Exception {
        Sandbox temporary = Sandbox.createTemporary();
        Files.writeString(temporary.root().resolve("f.txt"), "x");

        temporary.deleteIfTemporary();
        sandbox.deleteIfTemporary();

        assertThat(temporary.root()).doesNotExist();
        assertThat(sandbox.root()).exists();
    }
}
