package dev.mcppolicy.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sandbox server's tools do real work over stdio, driven by the SDK client against the forked jar. */
class SandboxServerStdioIT {
    @TempDir
    static Path sandbox;

    private static final Queue<String> serverLog = new ConcurrentLinkedQueue<>();
    /** Notified at each server stderr line: the stderr pipe is read on its own thread, after or before the answer. */
    private static final Object LOGGED = new Object();
    private static McpSyncClient client;

    @BeforeAll
    static void startServer() {
        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(ForkedProcess.java())
                .args("-jar", ForkedProcess.DEMO_JAR.toString(), "--sandbox", sandbox.toString())
                .build(), McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> {
            synchronized (LOGGED) {
                serverLog.add(line);
                LOGGED.notifyAll();
            }
        });
        client = McpClient.sync(transport)
                .clientInfo(Implementation.builder("stdio-it", "1.0").build())
                .requestTimeout(Duration.ofSeconds(60))
                .build();
        client.initialize();
    }

    @AfterAll
    static void stopServer() {
        client.closeGracefully();
    }

    @Test
    void listsEightToolsEachWithAnObjectInputSchema() {
        List<Tool> tools = client.listTools().tools();

        assertThat(tools).extracting(Tool::name).containsExactlyInAnyOrder("run_command", "sandbox_exec_background",
                "sandbox_exec_status", "sandbox_exec_list", "sandbox_exec_kill", "read_file", "write_file",
                "delete_file");
        assertThat(tools).allSatisfy(tool -> {
            assertThat(tool.inputSchema()).containsEntry("type", "object").containsKey("properties");
            assertThat(tool.description()).isNotBlank();
        });
        assertThat(tools.stream().filter(tool -> tool.name().equals("run_command")).findFirst().orElseThrow()
                .inputSchema()).containsEntry("required", List.of("command"));
    }

    @Test
    void runCommandReturnsStdoutStderrAndExitCode() {
        Map<String, Object> result = ok(call("run_command", Map.of("command", "echo out; echo err >&2; exit 3")));

        assertThat(result).containsEntry("stdout", "out\n").containsEntry("stderr", "err\n")
                .containsEntry("exitCode", 3).containsEntry("timedOut", false);
    }

    @Test
    void runCommandWorksInTheSandboxDirectory() throws Exception {
        Map<String, Object> result = ok(call("run_command", Map.of("command", "pwd")));

        assertThat(result.get("stdout")).isEqualTo(sandbox.toRealPath() + "\n");
    }

    @Test
    void runCommandKillsACommandThatOutlivesItsTimeout() {
        Map<String, Object> result = ok(call("run_command", Map.of("command", "sleep 30", "timeoutSeconds", 1)));

        assertThat(result).containsEntry("timedOut", true).containsEntry("exitCode", null);
        assertThat(((Number) result.get("durationMs")).longValue()).isLessThan(15_000);
    }

    @Test
    void refusesArgumentsThatBreakTheInputSchema() {
        CallToolResult result = call("run_command", Map.of("timeoutSeconds", 5));

        assertThat(result.isError()).isTrue();
        assertThat(text(result)).contains("required property 'command'");
    }

    @Test
    void backgroundExecIsStartedPolledAndKilled() throws Exception {
        Map<String, Object> started = ok(call("sandbox_exec_background",
                Map.of("command", "echo ready; exec sleep 60")));
        String execId = (String) started.get("execId");
        assertThat(started).containsEntry("status", "running");

        Map<String, Object> polled = ok(call("sandbox_exec_status",
                Map.of("execId", execId, "offset", 0, "waitSeconds", 10)));
        assertThat(polled).containsEntry("output", "ready\n").containsEntry("status", "running")
                .containsEntry("nextOffset", 6);
        assertThat(listedExecs()).containsEntry(execId, "running");

        Map<String, Object> killed = ok(call("sandbox_exec_kill", Map.of("execId", execId)));
        assertThat(killed).containsEntry("status", "killed");
        assertThat(ok(call("sandbox_exec_status", Map.of("execId", execId, "offset", 6))))
                .containsEntry("status", "killed").containsEntry("output", "");
        assertThat(listedExecs()).containsEntry(execId, "killed");
    }

    @Test
    void backgroundExecReportsItsExitCodeAndOutputSinceAnOffset() throws Exception {
        String execId = (String) ok(call("sandbox_exec_background",
                Map.of("command", "echo one; echo two; exit 7"))).get("execId");

        Map<String, Object> status = awaitEnd(execId);

        assertThat(status).containsEntry("status", "exited").containsEntry("exitCode", 7);
        assertThat(ok(call("sandbox_exec_status", Map.of("execId", execId, "offset", 4))))
                .containsEntry("output", "two\n").containsEntry("offset", 4).containsEntry("nextOffset", 8);
    }

    @Test
    void unknownExecIdIsAToolError() {
        CallToolResult result = call("sandbox_exec_status", Map.of("execId", "exec-999"));

        assertThat(result.isError()).isTrue();
        assertThat(text(result)).contains("exec-999");
    }

    @Test
    void fileToolsWriteReadAndDeleteInsideTheSandbox() throws Exception {
        ok(call("write_file", Map.of("path", "dir/note.txt", "content", "hello")));
        ok(call("write_file", Map.of("path", "dir/note.txt", "content", " world", "append", true)));
        assertThat(Files.readString(sandbox.resolve("dir/note.txt"))).isEqualTo("hello world");
        assertThat(ok(call("read_file", Map.of("path", "dir/note.txt")))).containsEntry("content", "hello world");

        assertThat(ok(call("delete_file", Map.of("path", "dir/note.txt")))).containsEntry("deleted", true);

        assertThat(sandbox.resolve("dir/note.txt")).doesNotExist();
    }

    @Test
    void fileToolsRejectPathsThatEscapeTheSandbox() throws Exception {
        ok(call("run_command", Map.of("command", "ln -s / rootlink")));

        for (CallToolResult result : List.of(
                call("read_file", Map.of("path", "../../../../etc/passwd")),
                call("read_file", Map.of("path", "/etc/passwd")),
                call("read_file", Map.of("path", "rootlink/etc/passwd")),
                call("write_file", Map.of("path", "../escaped.txt", "content", "x")),
                call("delete_file", Map.of("path", "rootlink/tmp")))) {
            assertThat(result.isError()).as(text(result)).isTrue();
            assertThat(text(result)).contains("is rejected");
        }
        assertThat(sandbox.resolveSibling("escaped.txt")).doesNotExist();
        Files.delete(sandbox.resolve("rootlink"));
    }

    @Test
    void offersTheFilesAtTheSandboxsRootAsResourcesAndFollowsTheToolsChanges() {
        assertThat(client.getServerCapabilities().resources()).isNotNull();
        assertThat(client.listResourceTemplates().resourceTemplates()).extracting(ResourceTemplate::uriTemplate)
                .containsExactly("file:///sandbox/{path}");

        ok(call("write_file", Map.of("path", "listed.txt", "content", "listed\n")));
        assertThat(resourceUris()).contains("file:///sandbox/listed.txt");
        assertThat(((McpSchema.TextResourceContents) client.readResource(
                ReadResourceRequest.builder("file:///sandbox/listed.txt").build()).contents().get(0)).text()).isEqualTo("listed\n");

        ok(call("delete_file", Map.of("path", "listed.txt")));
        assertThat(resourceUris()).doesNotContain("file:///sandbox/listed.txt");
    }

    @Test
    void resourceReadsCannotLeaveTheSandbox() throws Exception {
        ok(call("write_file", Map.of("path", "inside/note.txt", "content", "inside")));
        Files.createSymbolicLink(sandbox.resolve("rootlink2"), Path.of("/"));
        try {
            assertThat(((McpSchema.TextResourceContents) client.readResource(
                    ReadResourceRequest.builder("file:///sandbox/inside%2Fnote.txt").build()).contents().get(0)).text())
                    .isEqualTo("inside");
            for (String uri : List.of("file:///sandbox/..%2F..%2F..%2F..%2Fetc%2Fpasswd", "file:///sandbox/%2Fetc%2Fpasswd",
                    "file:///sandbox/rootlink2%2Fetc%2Fpasswd")) {
                McpError error = catchThrowableOfType(McpError.class, () -> client.readResource(ReadResourceRequest.builder(uri).build()));
                assertThat(error).as(uri).isNotNull();
                assertThat(error.getJsonRpcError().code()).as(uri).isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS);
                assertThat(error.getJsonRpcError().message()).as(uri).contains("is rejected");
            }
            // Not the template's one segment, so the SDK finds no resource before any handler runs.
            McpError notFound = catchThrowableOfType(McpError.class, () -> client.readResource(
                    ReadResourceRequest.builder("file:///sandbox/%2e%2e/etc/passwd").build()));
            assertThat(notFound.getJsonRpcError().code()).isEqualTo(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND);
        } finally {
            Files.delete(sandbox.resolve("rootlink2"));
        }
    }

    @Test
    void logsToStderrAndKeepsStdoutForJsonRpc() throws InterruptedException {
        call("run_command", Map.of("command", "echo logged"));

        assertThat(serverLog).anyMatch(line -> line.contains("serving 8 tools over stdio"));
        awaitServerLog(line -> line.contains("tool run_command -> ok"));
        assertThat(serverLog).anyMatch(line -> line.contains("tool run_command -> ok"));
    }

    /** Waits (at most 30 s) until a server stderr line matches; the caller asserts it. */
    private static void awaitServerLog(Predicate<String> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        synchronized (LOGGED) {
            long left;
            while (serverLog.stream().noneMatch(wanted) && (left = deadline - System.nanoTime()) > 0) {
                LOGGED.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    private static Map<String, Object> awaitEnd(String execId) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Map<String, Object> status;
        do {
            status = ok(call("sandbox_exec_status", Map.of("execId", execId, "offset", 1 << 20, "waitSeconds", 1)));
        } while ("running".equals(status.get("status")) && System.nanoTime() < deadline);
        return status;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> listedExecs() {
        List<Map<String, Object>> execs = (List<Map<String, Object>>) ok(call("sandbox_exec_list", Map.of()))
                .get("execs");
        return execs.stream().collect(Collectors.toMap(
                exec -> (String) exec.get("execId"), exec -> (String) exec.get("status")));
    }

    private static List<String> resourceUris() {
        return client.listResources().resources().stream().map(Resource::uri).collect(Collectors.toList());
    }

    private static CallToolResult call(String tool, Map<String, Object> arguments) {
        return client.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> ok(CallToolResult result) {
        assertThat(result.isError()).as(text(result)).isFalse();
        return (Map<String, Object>) result.structuredContent();
    }

    private static String text(CallToolResult result) {
        return ((TextContent) result.content().get(0)).text();
    }
}
