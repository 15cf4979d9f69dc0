package dev.mcppolicy.demo.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import dev.mcppolicy.demo.sandbox.Sandbox;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sandbox's files as resources, without a policy agent: a read cannot leave the sandbox by itself. */
class SandboxResourcesTest {
    @TempDir
    Path parent;

    private Sandbox sandbox;
    private SandboxResources resources;

    @BeforeEach
    void createSandbox() throws Exception {
        sandbox = Sandbox.at(parent.resolve("box"));
        resources = new SandboxResources(sandbox);
        Files.writeString(parent.resolve("secret.txt"), "outside the sandbox");
    }

    /** The links this test plants, removed before JUnit cleans the directory (it warns about links leading out). */
    @AfterEach
    void removeLinks() throws Exception {
        for (String link : new String[] {"link", "rootlink"}) {
            Files.deleteIfExists(sandbox.root().resolve(link));
        }
    }

    @Test
    void listsTheRegularFilesAtTheRootSortedWithPercentEncodedUris() throws Exception {
        Files.writeString(sandbox.root().resolve("notes.txt"), "hello");
        Files.writeString(sandbox.root().resolve(".env"), "A=1");
        Files.writeString(sandbox.root().resolve("a b%.txt"), "x");
        Files.createDirectories(sandbox.root().resolve("dir"));
        Files.writeString(sandbox.root().resolve("dir/nested.txt"), "y");
        Files.createSymbolicLink(sandbox.root().resolve("link"), parent.resolve("secret.txt"));

        assertThat(resources.list()).extracting(Resource::uri, Resource::name).containsExactly(
                tuple("file:///sandbox/.env", ".env"),
                tuple("file:///sandbox/a%20b%25.txt", "a b%.txt"),
                tuple("file:///sandbox/notes.txt", "notes.txt"));
        assertThat(resources.list()).allSatisfy(resource -> assertThat(resource.mimeType()).isEqualTo("text/plain"));
        assertThat(resources.template().resourceTemplate().uriTemplate()).isEqualTo("file:///sandbox/{path}");
    }

    @Test
    void readsAFileByItsUriAndANestedOneByItsEncodedPath() throws Exception {
        Files.writeString(sandbox.root().resolve("a b%.txt"), "spaced\n");
        Files.createDirectories(sandbox.root().resolve("dir"));
        Files.writeString(sandbox.root().resolve("dir/nested.txt"), "nested ü\n");

        assertThat(text(resources.read(SandboxResources.uriOf("a b%.txt")))).isEqualTo("spaced\n");
        ReadResourceResult nested = resources.read("file:///sandbox/dir%2Fnested.txt");
        assertThat(text(nested)).isEqualTo("nested ü\n");
        assertThat(nested.contents().get(0).uri()).isEqualTo("file:///sandbox/dir%2Fnested.txt");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "file:///sandbox/%2e%2e/etc/passwd",
        "file:///sandbox/..%2Fetc%2Fpasswd",
        "file:///sandbox/..%2fsecret.txt",
        "file:///sandbox/%2E%2E%2Fsecret.txt",
        "file:///sandbox/%2Fetc%2Fpasswd",
        "file:///sandbox/../secret.txt",
        "file:///sandbox/link",
        "file:///sandbox/rootlink%2Fetc%2Fpasswd",
        "file:///sandbox/x%00y",
        "file:///sandbox/%C0%AE%C0%AE%2Fsecret.txt",
        "file:///sandbox/%zz",
        "file:///sandbox/%2",
        "file:///sandbox/",
        "file:///etc/passwd",
        "file:///sandboxed/notes.txt",
        "http://example.com/sandbox/notes.txt"})
    void refusesEveryUriThatLeavesTheSandboxOrIsNotASandboxFile(String uri) throws Exception {
        Files.createSymbolicLink(sandbox.root().resolve("link"), parent.resolve("secret.txt"));
        Files.createSymbolicLink(sandbox.root().resolve("rootlink"), Path.of("/"));

        McpError error = catchThrowableOfType(McpError.class, () -> resources.read(uri));

        assertThat(error).as(uri).isNotNull();
        assertThat(error.getJsonRpcError().code()).isEqualTo(ErrorCodes.INVALID_PARAMS);
        assertThat(error.getJsonRpcError().message()).contains("resource '" + uri + "'");
    }

    @Test
    void aMissingFileIsNotFound() {
        McpError error = catchThrowableOfType(McpError.class, () -> resources.read("file:///sandbox/missing.txt"));

        assertThat(error.getJsonRpcError().code()).isEqualTo(ErrorCodes.RESOURCE_NOT_FOUND);
    }

    @Test
    void refusesADirectoryAFileThatIsNotUtf8AndOneLargerThanTheLimit() throws Exception {
        Files.createDirectories(sandbox.root().resolve("dir"));
        Files.write(sandbox.root().resolve("binary.bin"), new byte[] {(byte) 0xff, (byte) 0xfe, 0});
        Files.write(sandbox.root().resolve("big.txt"), new byte[(int) SandboxResources.READ_LIMIT + 1]);

        assertThat(catchThrowableOfType(McpError.class, () -> resources.read("file:///sandbox/dir"))
                .getJsonRpcError().code()).isEqualTo(ErrorCodes.RESOURCE_NOT_FOUND);
        assertThat(catchThrowableOfType(McpError.class, () -> resources.read("file:///sandbox/binary.bin"))
                .getJsonRpcError().message()).contains("not UTF-8");
        assertThat(catchThrowableOfType(McpError.class, () -> resources.read("file:///sandbox/big.txt"))
                .getJsonRpcError().message()).contains("at most " + SandboxResources.READ_LIMIT);
    }

    @Test
    void encodesEverythingButUnreservedCharacters() {
        assertThat(SandboxResources.uriOf("notes-1_a.b~")).isEqualTo("file:///sandbox/notes-1_a.b~");
        assertThat(SandboxResources.uriOf("ä/{x}?#")).isEqualTo("file:///sandbox/%C3%A4%2F%7Bx%7D%3F%23");
        assertThat(SandboxResources.pathOf(SandboxResources.uriOf("ä/{x}?#"))).isEqualTo("ä/{x}?#");
    }

    private static String text(ReadResourceResult result) {
        assertThat(result.contents()).hasSize(1);
        return ((TextResourceContents) result.contents().get(0)).text();
    }
}
