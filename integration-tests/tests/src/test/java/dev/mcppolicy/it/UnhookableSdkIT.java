package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * An MCP SDK class the agent cannot hook (here: an {@code McpAsyncServer} of an unknown shape, with no
 * tools/call or tools/list handler) must be a loud WARN naming the class, never silence, and the app
 * must run on.
 */
class UnhookableSdkIT {
    private static final String UNKNOWN_SHAPE_SERVER = """
            package io.modelcontextprotocol.server;

            public class McpAsyncServer {
                public String describe() {
                    return "an McpAsyncServer from an SDK shape the agent does not know";
                }
            }
            """;

    private static final String APP = """
            package app;

            public class Main {
                public static void main(String[] args) {
                    System.out.println(new io.modelcontextprotocol.server.McpAsyncServer().describe());
                }
            }
            """;

    @Test
    void warnsLoudlyAboutAnMcpClassItCannotHookAndLetsTheAppRun() throws Exception {
        Path dir = Fixtures.workDir("UnhookableSdkIT");
        Files.writeString(dir.resolve("mcp-policy.json"), Policies.SERVER);
        Path classes = compile(dir.resolve("src"), dir.resolve("classes"));

        try (ForkedJvm jvm = ForkedJvm.start("unhookable", dir, List.of(Fixtures.javaagent("")), classes.toString(),
                "app.Main", List.of())) {
            assertThat(jvm.waitForExit()).as(jvm.dump()).isZero();
            assertThat(jvm.stdout()).containsExactly("an McpAsyncServer from an SDK shape the agent does not know");
            assertThat(jvm.stderr()).as(jvm.dump())
                    .anyMatch(line -> line.startsWith("[mcp-policy] WARN NOT instrumented: io.modelcontextprotocol.server.McpAsyncServer")
                            && line.contains("no method for tools/call")
                            && line.endsWith("these calls are NOT policed"))
                    .anyMatch(line -> line.startsWith("[mcp-policy] WARN NOT instrumented: io.modelcontextprotocol.server.McpAsyncServer")
                            && line.contains("no method for tools/list"))
                    .noneMatch(line -> line.contains("advice error"));
        }
    }

    private static Path compile(Path sources, Path classes) throws Exception {
        Path server = sources.resolve("io/modelcontextprotocol/server/McpAsyncServer.java");
        Path app = sources.resolve("app/Main.java");
        Files.createDirectories(server.getParent());
        Files.createDirectories(app.getParent());
        Files.createDirectories(classes);
        Files.writeString(server, UNKNOWN_SHAPE_SERVER);
        Files.writeString(app, APP);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int exit = javac.run(null, diagnostics, diagnostics, "-d", classes.toString(), server.toString(), app.toString());
        assertThat(exit).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();
        return classes;
    }
}
