package dev.mcppolicy.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A fixture client JVM talking to a fixture server JVM, both with the real agent, each with its own
 * working directory and policy. Over stdio the client spawns the server and relays its stderr as
 * {@code SERVER| ...} lines; over HTTP the server is a JVM of its own.
 */
final class McpPair implements AutoCloseable {
    static final String SERVER_MARK = "SERVER| ";

    private final ForkedJvm client;
    private final ForkedJvm server;
    private final String url;
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger syncs = new AtomicInteger();
    private boolean clientLogIsOff;

    private McpPair(ForkedJvm client, ForkedJvm server, String url) {
        this.client = client;
        this.server = server;
        this.url = url;
    }

    static McpPair start(String name, String sdkVersion, String transport, String serverPolicy, String clientPolicy,
            String serverAgentOptions, String clientAgentOptions) throws IOException {
        return start(name, sdkVersion, transport, false, serverPolicy, clientPolicy, serverAgentOptions, clientAgentOptions);
    }

    /** @param async use the SDK's async server and async client instead of the sync facades */
    static McpPair start(String name, String sdkVersion, String transport, boolean async, String serverPolicy,
            String clientPolicy, String serverAgentOptions, String clientAgentOptions) throws IOException {
        return start(name, sdkVersion, transport, async, serverPolicy, clientPolicy, serverAgentOptions, clientAgentOptions,
                List.of(), Fixtures.classPath(sdkVersion));
    }

    /**
     * @param serverJvmArgs more options for the server JVM ({@code -Dfixture...})
     * @param serverClassPath the server's class path (the client's is {@link Fixtures#classPath})
     */
    static McpPair start(String name, String sdkVersion, String transport, boolean async, String serverPolicy,
            String clientPolicy, String serverAgentOptions, String clientAgentOptions, List<String> serverJvmArgs,
            String serverClassPath) throws IOException {
        List<String> server = new ArrayList<>(List.of("-Dfixture.async=" + async));
        server.addAll(serverJvmArgs);
        server.addAll(List.of("-cp", serverClassPath, "fixture.FixtureServer", transport));
        return startWithServer(name, sdkVersion, transport, async, serverPolicy, clientPolicy, serverAgentOptions,
                clientAgentOptions, server, null);
    }

    /**
     * A fixture client of SDK {@code sdkVersion} and any server: {@code serverCommand} is what follows
     * {@code java -javaagent:...} on the server's command line (its options, then its class path and main
     * class, or {@code -jar app.jar} and its arguments). An HTTP server must print {@code FIXTURE LISTENING <port>}
     * on stderr once it serves.
     *
     * @param serverStdout over stdio, a file in the server's working directory that gets a copy of what the
     *     server writes to stdout (the JSON-RPC stream the client reads); {@code null} for none
     */
    static McpPair startWithServer(String name, String sdkVersion, String transport, boolean async, String serverPolicy,
            String clientPolicy, String serverAgentOptions, String clientAgentOptions, List<String> serverCommand,
            String serverStdout) throws IOException {
        return startWithServer(name, sdkVersion, transport, async, serverPolicy, clientPolicy, serverAgentOptions,
                clientAgentOptions, serverCommand, serverStdout, "fixture.FixtureClient", List.of());
    }

    /** {@link #startWithServer(String, String, String, boolean, String, String, String, String, List, String)} with the client JVM's own options. */
    static McpPair startWithServer(String name, String sdkVersion, String transport, boolean async, String serverPolicy,
            String clientPolicy, String serverAgentOptions, String clientAgentOptions, List<String> serverCommand,
            String serverStdout, List<String> clientJvmArgs) throws IOException {
        return startWithServer(name, sdkVersion, transport, async, serverPolicy, clientPolicy, serverAgentOptions,
                clientAgentOptions, serverCommand, serverStdout, "fixture.FixtureClient", clientJvmArgs);
    }

    /**
     * The fixture client and server written on the SDK 2.2 modern API ({@code fixture.ModernClient},
     * {@code fixture.ModernServer}), over {@code stdio} or {@code http}.
     */
    static McpPair startModern(String name, String transport, boolean async, String serverPolicy, String clientPolicy,
            String serverAgentOptions, String clientAgentOptions) throws IOException {
        return startModern(name, transport, async, serverPolicy, clientPolicy, serverAgentOptions, clientAgentOptions, List.of());
    }

    /** {@link #startModern} with more options for the client JVM ({@code -Dfixture.elicit=accept}, say). */
    static McpPair startModern(String name, String transport, boolean async, String serverPolicy, String clientPolicy,
            String serverAgentOptions, String clientAgentOptions, List<String> clientJvmArgs) throws IOException {
        return startModern(name, transport, async, serverPolicy, clientPolicy, serverAgentOptions, clientAgentOptions, clientJvmArgs, List.of());
    }

    /** {@link #startModern} with more options for both JVMs (the server's {@code -Dfixture.catalog=true}, say). */
    static McpPair startModern(String name, String transport, boolean async, String serverPolicy, String clientPolicy,
            String serverAgentOptions, String clientAgentOptions, List<String> clientJvmArgs, List<String> serverJvmArgs) throws IOException {
        List<String> server = new ArrayList<>(List.of("-Dfixture.async=" + async));
        server.addAll(serverJvmArgs);
        server.addAll(List.of("-cp", Fixtures.classPath(MODERN_SDK), "fixture.ModernServer", transport));
        return startWithServer(name, MODERN_SDK, transport, async, serverPolicy, clientPolicy, serverAgentOptions,
                clientAgentOptions, server, null, "fixture.ModernClient", clientJvmArgs);
    }

    /**
     * The fixture server written on the Kotlin MCP SDK ({@code fixture.kotlin.KotlinServerKt}) over {@code stdio}, its
     * client the Kotlin fixture client, or over {@code streamable} HTTP, its client the SDK {@value #KOTLIN_HTTP_CLIENT}
     * fixture client.
     */
    static McpPair startKotlin(String name, String transport, String serverPolicy, String clientPolicy, String serverAgentOptions,
            String clientAgentOptions) throws IOException {
        return startKotlin(name, transport, serverPolicy, clientPolicy, serverAgentOptions, clientAgentOptions, List.of());
    }

    /** {@link #startKotlin(String, String, String, String, String, String)} with the server JVM's own options ({@code -Dfixture.catalog=true}). */
    static McpPair startKotlin(String name, String transport, String serverPolicy, String clientPolicy, String serverAgentOptions,
            String clientAgentOptions, List<String> serverJvmArgs) throws IOException {
        List<String> server = new ArrayList<>(serverJvmArgs);
        server.addAll(List.of("-cp", Fixtures.kotlinClassPath(), "fixture.kotlin.KotlinServerKt", transport));
        boolean stdio = "stdio".equals(transport);
        return startWithServer(name, stdio ? KOTLIN : KOTLIN_HTTP_CLIENT, transport, false, serverPolicy, clientPolicy, serverAgentOptions,
                clientAgentOptions, server, null, stdio ? "fixture.kotlin.KotlinClientKt" : "fixture.FixtureClient", List.of());
    }

    /** The Kotlin MCP SDK version of the Kotlin fixtures, as {@link #startWithServer} names its client's class path. */
    static final String KOTLIN = "kotlin-0.16.0";

    /** The SDK whose fixture client talks to the Kotlin server over HTTP. */
    static final String KOTLIN_HTTP_CLIENT = "2.1.0";

    /** The SDK version whose fixtures include the modern API's apps. */
    static final String MODERN_SDK = "2.2.0";

    private static McpPair startWithServer(String name, String sdkVersion, String transport, boolean async, String serverPolicy,
            String clientPolicy, String serverAgentOptions, String clientAgentOptions, List<String> serverCommand,
            String serverStdout, String clientMain, List<String> clientJvmArgs) throws IOException {
        Path root = Fixtures.workDir(name);
        Path serverDir = Files.createDirectories(root.resolve("server"));
        Path clientDir = Files.createDirectories(root.resolve("client"));
        Files.writeString(serverDir.resolve("mcp-policy.json"), serverPolicy);
        Files.writeString(clientDir.resolve("mcp-policy.json"), clientPolicy);
        String classPath = KOTLIN.equals(sdkVersion) ? Fixtures.kotlinClassPath() : Fixtures.classPath(sdkVersion);
        String serverAgent = Fixtures.javaagent(serverAgentOptions);
        List<String> clientJvm = new ArrayList<>(List.of(Fixtures.javaagent(clientAgentOptions), "-Dfixture.async=" + async));
        clientJvm.addAll(clientJvmArgs);
        ForkedJvm server = null;
        String url = null;
        List<String> clientArgs = new ArrayList<>();
        clientArgs.add(transport);
        if ("stdio".equals(transport)) {
            StringBuilder line = new StringBuilder("cd ").append(quoted(serverDir.toString())).append(" && exec ")
                    .append(quoted(ForkedJvm.javaExecutable())).append(' ').append(quoted(serverAgent));
            for (String arg : serverCommand) {
                line.append(' ').append(quoted(arg));
            }
            if (serverStdout != null) {
                // tee is the server's child, so it ends with the server; the client still reads the server's output
                line.append(" > >(tee ").append(quoted(serverStdout)).append(')');
            }
            clientArgs.addAll(List.of(serverStdout == null ? "sh" : "bash", "-c", line.toString()));
        } else {
            List<String> command = new ArrayList<>(List.of(ForkedJvm.javaExecutable(), serverAgent));
            command.addAll(serverCommand);
            server = ForkedJvm.startProcess(name + "-server", serverDir, command);
        }
        try {
            if (server != null) {
                String listening = server.awaitStderr(l -> l.startsWith("FIXTURE LISTENING "));
                url = "http://localhost:" + listening.substring("FIXTURE LISTENING ".length()).trim();
                clientArgs.add(url);
            }
            ForkedJvm client = ForkedJvm.start(name + "-client", clientDir, clientJvm, classPath, clientMain, clientArgs);
            McpPair pair = new McpPair(client, server, url);
            pair.clientLogIsOff = clientAgentOptions.contains("log=off");
            try {
                client.awaitStdout(0, l -> l.equals(">> READY"));
            } catch (RuntimeException | Error e) {
                pair.close();
                throw e;
            }
            return pair;
        } catch (RuntimeException | Error | IOException e) {
            // a pair that never started leaves no server behind (a leaked one would hold a core and a port)
            if (server != null) {
                server.close();
            }
            throw e;
        }
    }

    private static String quoted(String arg) {
        return "'" + arg.replace("'", "'\\''") + "'";
    }

    /** The HTTP server's base URL ({@code http://localhost:<port>}); {@code null} over stdio. */
    /** The fixture client's JVM (its agent's startup summary, admin endpoint, ...). */
    ForkedJvm clientJvm() {
        return client;
    }

    /** The fixture server's JVM, or {@code null} over stdio (the client starts the server). */
    ForkedJvm serverJvm() {
        return server;
    }

    String serverUrl() {
        return url;
    }

    /** {@code RESULT isError=... text=...} or {@code ERROR ...}. */
    String call(String tool, String json) throws IOException {
        return command("call " + tool + " " + json);
    }

    String list() throws IOException {
        return command("list");
    }

    /** One command of the fixture client's loop ({@code burst ...}, say); its answer without the {@code >> }. */
    synchronized String command(String command) throws IOException {
        int from = client.stdout().size();
        client.send(command);
        String answer = client.awaitStdout(from, line -> line.startsWith(">> ") && !line.equals(">> READY"));
        answered.incrementAndGet();
        return answer.substring(3);
    }

    /** Waits until a server stderr line matches; stderr arrives independently of the client's answers. */
    void awaitServerLog(Predicate<String> match) {
        if (server != null) {
            server.awaitStderr(match);
        } else {
            client.awaitStderr(line -> line.startsWith(SERVER_MARK) && match.test(line.substring(SERVER_MARK.length())));
        }
    }

    void awaitClientLog(Predicate<String> match) {
        client.awaitStderr(line -> !line.startsWith(SERVER_MARK) && match.test(line));
    }

    /**
     * Makes the server log complete up to now: an allowed echo with a fresh marker, then a wait for its
     * handler's line, which the server writes after everything it wrote for earlier calls.
     */
    void sync() throws IOException {
        String marker = "sync-" + syncs.incrementAndGet();
        String answer = call("echo", "{\"text\":\"" + marker + "\"}");
        if (!answer.equals("RESULT isError=false text=echo: " + marker)) {
            throw new AssertionError("sync call was not answered as expected: " + answer + "\n" + dump());
        }
        awaitServerLog(line -> line.startsWith("HANDLER RAN echo ") && line.contains(marker));
        awaitClientLog(line -> line.contains("decision=ALLOW tool=echo side=client") || clientLogIsOff);
    }

    /** The server JVM's stderr: its own process's, or the lines the stdio client relayed. */
    List<String> serverLog() {
        if (server != null) {
            return server.stderr();
        }
        List<String> lines = new ArrayList<>();
        for (String line : client.stderr()) {
            if (line.startsWith(SERVER_MARK)) {
                lines.add(line.substring(SERVER_MARK.length()));
            }
        }
        return lines;
    }

    /** The client JVM's own stderr, without relayed server lines. */
    List<String> clientLog() {
        List<String> lines = new ArrayList<>();
        for (String line : client.stderr()) {
            if (!line.startsWith(SERVER_MARK)) {
                lines.add(line);
            }
        }
        return lines;
    }

    boolean serverAlive() {
        return server == null ? client.isAlive() : server.isAlive();
    }

    String dump() {
        return client.dump() + (server == null ? "" : "\n" + server.dump());
    }

    @Override
    public void close() throws IOException {
        try {
            if (client.isAlive()) {
                client.send("quit");
                client.waitForExit();
            }
        } catch (IOException | InterruptedException | AssertionError e) {
            // closing anyway
        } finally {
            client.close();
            if (server != null) {
                server.close();
            }
        }
    }
}
