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
 * An MCP class the agent cannot hook (here: an {@code McpAsyncServer} of an unknown shape, with no
 * tools/call or tools/list handler, and a LangChain4j {@code DefaultMcpClient} with no executeTool or
 * listTools) must be a loud WARN naming the class, never silence, and the app must run on.
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

    /**
     * The same for LangChain4j's own MCP client, which needs no MCP SDK: its classes wake the agent, and a
     * {@code DefaultMcpClient} of a shape it does not know is a WARN, not a client that silently goes unpoliced.
     */
    @Test
    void warnsLoudlyAboutALangChain4jClientItCannotHook() throws Exception {
        Path dir = Fixtures.workDir("UnhookableSdkIT-langchain4j");
        Files.writeString(dir.resolve("mcp-policy.json"), Policies.CLIENT);
        Path classes = compile(dir.resolve("src"), dir.resolve("classes"), "dev/langchain4j/mcp/client/DefaultMcpClient.java",
                UNKNOWN_SHAPE_LANGCHAIN4J_CLIENT, LANGCHAIN4J_APP);

        try (ForkedJvm jvm = ForkedJvm.start("unhookable-langchain4j", dir, List.of(Fixtures.javaagent("")), classes.toString(),
                "app.Main", List.of())) {
            assertThat(jvm.waitForExit()).as(jvm.dump()).isZero();
            assertThat(jvm.stdout()).containsExactly("a DefaultMcpClient from a LangChain4j shape the agent does not know");
            String warn = "[mcp-policy] WARN NOT instrumented: dev.langchain4j.mcp.client.DefaultMcpClient (version unknown): no method for ";
            assertThat(jvm.stderr()).as(jvm.dump())
                    .anyMatch(line -> line.startsWith(warn + "executeTool (expected langchain4j-mcp ")
                            && line.endsWith("these calls are NOT policed"))
                    .anyMatch(line -> line.startsWith(warn + "listTools"))
                    .noneMatch(line -> line.contains("advice error"));
        }
    }

    private static final String UNKNOWN_SHAPE_LANGCHAIN4J_CLIENT = """
            package dev.langchain4j.mcp.client;

            public class DefaultMcpClient {
                public String describe() {
                    return "a DefaultMcpClient from a LangChain4j shape the agent does not know";
                }
            }
            """;

    private static final String LANGCHAIN4J_APP = """
            package app;

            public class Main {
                public static void main(String[] args) {
                    System.out.println(new dev.langchain4j.mcp.client.DefaultMcpClient().describe());
                }
            }
            """;

    private static Path compile(Path sources, Path classes) throws Exception {
        return compile(sources, classes, "io/modelcontextprotocol/server/McpAsyncServer.java", UNKNOWN_SHAPE_SERVER, APP);
    }

    private static Path compile(Path sources, Path classes, String hookedPath, String hookedSource, String appSource) throws Exception {
        Path server = sources.resolve(hookedPath);
        Path app = sources.resolve("app/Main.java");
        Files.createDirectories(server.getParent());
        Files.createDirectories(app.getParent());
        Files.createDirectories(classes);
        Files.writeString(server, hookedSource);
        Files.writeString(app, appSource);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int exit = javac.run(null, diagnostics, diagnostics, "-d", classes.toString(), server.toString(), app.toString());
        assertThat(exit).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();
        return classes;
    }
}
