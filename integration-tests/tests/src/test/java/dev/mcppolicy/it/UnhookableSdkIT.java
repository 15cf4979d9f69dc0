package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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

    /**
     * The Kotlin MCP SDK's {@code Server} and {@code Client} of a shape the agent does not know (another version's
     * signatures; here stand-ins with none of the hooked methods): a WARN per hook it cannot place, naming the class.
     */
    @Test
    void warnsLoudlyAboutAKotlinSdkItCannotHook() throws Exception {
        Path dir = Fixtures.workDir("UnhookableSdkIT-kotlin");
        Files.writeString(dir.resolve("mcp-policy.json"), Policies.SERVER);
        Path classes = compile(dir.resolve("src"), dir.resolve("classes"), Map.of(
                "io/modelcontextprotocol/kotlin/sdk/server/Server.java", """
                        package io.modelcontextprotocol.kotlin.sdk.server;

                        public class Server {
                        }
                        """,
                "io/modelcontextprotocol/kotlin/sdk/client/Client.java", """
                        package io.modelcontextprotocol.kotlin.sdk.client;

                        public class Client {
                        }
                        """,
                "app/Main.java", """
                        package app;

                        public class Main {
                            public static void main(String[] args) {
                                new io.modelcontextprotocol.kotlin.sdk.server.Server();
                                new io.modelcontextprotocol.kotlin.sdk.client.Client();
                                System.out.println("loaded");
                            }
                        }
                        """));

        try (ForkedJvm jvm = ForkedJvm.start("unhookable-kotlin", dir, List.of(Fixtures.javaagent("")), classes.toString(),
                "app.Main", List.of())) {
            assertThat(jvm.waitForExit()).as(jvm.dump()).isZero();
            assertThat(jvm.stdout()).containsExactly("loaded");
            String warn = "[mcp-policy] WARN NOT instrumented: io.modelcontextprotocol.kotlin.sdk.";
            assertThat(jvm.stderr()).as(jvm.dump())
                    .anyMatch(line -> line.startsWith(warn + "server.Server (version unknown): no method for tools/call (expected the Kotlin MCP SDK ")
                            && line.endsWith("these calls are NOT policed"))
                    .anyMatch(line -> line.startsWith(warn + "server.Server (version unknown): no method for tools/list"))
                    .anyMatch(line -> line.startsWith(warn + "client.Client (version unknown): no method for callTool"))
                    .anyMatch(line -> line.startsWith(warn + "client.Client (version unknown): no method for listTools"))
                    .noneMatch(line -> line.contains("advice error"));
        }
    }

    /**
     * The Quarkus MCP server's {@code ToolMessageHandler} of a shape the agent does not know (a version with other
     * signatures, or a vendored copy): a WARN per hook it cannot place, naming the class and the shape expected.
     */
    @Test
    void warnsLoudlyAboutAQuarkusMcpServerItCannotHook() throws Exception {
        Path dir = Fixtures.workDir("UnhookableSdkIT-quarkus");
        Files.writeString(dir.resolve("mcp-policy.json"), Policies.SERVER);
        Path classes = compile(dir.resolve("src"), dir.resolve("classes"), "io/quarkiverse/mcp/server/runtime/ToolMessageHandler.java", """
                package io.quarkiverse.mcp.server.runtime;

                public class ToolMessageHandler {
                    public String describe() {
                        return "a ToolMessageHandler from a Quarkus MCP server shape the agent does not know";
                    }
                }
                """, """
                package app;

                public class Main {
                    public static void main(String[] args) {
                        System.out.println(new io.quarkiverse.mcp.server.runtime.ToolMessageHandler().describe());
                    }
                }
                """);

        try (ForkedJvm jvm = ForkedJvm.start("unhookable-quarkus", dir, List.of(Fixtures.javaagent("")), classes.toString(),
                "app.Main", List.of())) {
            assertThat(jvm.waitForExit()).as(jvm.dump()).isZero();
            assertThat(jvm.stdout()).containsExactly("a ToolMessageHandler from a Quarkus MCP server shape the agent does not know");
            String warn = "[mcp-policy] WARN NOT instrumented: io.quarkiverse.mcp.server.runtime.ToolMessageHandler (version unknown): no method for ";
            assertThat(jvm.stderr()).as(jvm.dump())
                    .anyMatch(line -> line.startsWith(warn + "tools/call (expected the quarkus-mcp-server ")
                            && line.endsWith("these calls are NOT policed"))
                    .anyMatch(line -> line.startsWith(warn + "tools/list"))
                    .noneMatch(line -> line.contains("advice error"));
        }
    }

    /**
     * A client policy's {@code servers} section that no server the client reached matches (a typo of the server's
     * name): one WARN naming the section and the servers reached, after the first list, and not again on the next.
     */
    @Test
    void warnsOnceAboutAServersSectionNoServerMatches() throws Exception {
        String clientPolicy = Policies.CLIENT.replace("\"servers\": {", "\"servers\": {\n    \"fixture-srever\": { \"default\": \"deny\" },");
        try (McpPair pair = McpPair.start("UnhookableSdkIT-sections", "2.1.0", "stdio", Policies.SERVER, clientPolicy, "", "")) {
            assertThat(pair.list()).isEqualTo("TOOLS audit_me,echo,limited,run_command");
            assertThat(pair.list()).isEqualTo("TOOLS audit_me,echo,limited,run_command");
            pair.sync();
            List<String> warnings = pair.clientLog().stream().filter(line -> line.contains("WARN servers section")).toList();
            assertThat(warnings).as(pair.dump()).hasSize(1);
            assertThat(warnings.get(0)).startsWith("[mcp-policy] WARN servers section 'fixture-srever' matches no server this app's"
                    + " MCP clients have reached [fixture-server, stdio:");
        }
    }

    private static Path compile(Path sources, Path classes, Map<String, String> files) throws Exception {
        Files.createDirectories(classes);
        List<String> arguments = new java.util.ArrayList<>(List.of("-d", classes.toString()));
        for (Map.Entry<String, String> file : files.entrySet()) {
            Path source = sources.resolve(file.getKey());
            Files.createDirectories(source.getParent());
            Files.writeString(source, file.getValue());
            arguments.add(source.toString());
        }
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int exit = ToolProvider.getSystemJavaCompiler().run(null, diagnostics, diagnostics, arguments.toArray(String[]::new));
        assertThat(exit).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();
        return classes;
    }

    private static Path compile(Path sources, Path classes) throws Exception {
        return compile(sources, classes, "io/modelcontextprotocol/server/McpAsyncServer.java", UNKNOWN_SHAPE_SERVER, APP);
    }

    private static Path compile(Path sources, Path classes, String hookedPath, String hookedSource, String appSource) throws Exception {
        return compile(sources, classes, Map.of(hookedPath, hookedSource, "app/Main.java", appSource));
    }
}
