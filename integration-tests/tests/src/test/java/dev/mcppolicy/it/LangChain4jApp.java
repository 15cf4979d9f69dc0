package dev.mcppolicy.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The LangChain4j AI-service fixture app (with the real agent) talking to the SDK 2.1.0 fixture server
 * (without it: only LangChain4j's client is policed here). Over stdio LangChain4j spawns the server and
 * logs its stderr at debug ({@code ProcessStderrHandler - [ERROR] ...}, {@code [STDERR]} from 1.1x), which
 * is how the test sees which handlers ran; over HTTP (streamable, or SSE for 1.0) the server is a JVM of its own.
 */
final class LangChain4jApp implements AutoCloseable {
    /** What LangChain4j's stdio transport logs before each line of the server's stderr. */
    private static final String RELAYED = "ProcessStderrHandler - [";
    /** The tools the server offers (LangChain4j 1.0 cannot read the schemas of the fixture's others). */
    static final String TOOLS = "echo,run_command,wire_money,client_hidden,limited,audit_me";

    private final ForkedJvm app;
    private final ForkedJvm server;
    private final AtomicInteger syncs = new AtomicInteger();

    private LangChain4jApp(ForkedJvm app, ForkedJvm server) {
        this.app = app;
        this.server = server;
    }

    static LangChain4jApp start(String name, String version, String transport, String policy) throws IOException {
        return start(name, version, transport, address -> policy);
    }

    /**
     * @param policyFor the app's policy, given the server's address as the agent sees it ({@code url:<url>}
     *     over HTTP; {@code null} over stdio)
     */
    static LangChain4jApp start(String name, String version, String transport, Function<String, String> policyFor) throws IOException {
        return start(name, version, transport, policyFor, List.of());
    }

    /** @param serverJvmArgs more options for the server ({@code -Dfixture.catalog=true}, say) */
    static LangChain4jApp start(String name, String version, String transport, Function<String, String> policyFor,
            List<String> serverJvmArgs) throws IOException {
        Path root = Fixtures.workDir(name);
        Path appDir = Files.createDirectories(root.resolve("app"));
        String serverClassPath = Fixtures.classPath("2.1.0");
        List<String> appArgs = new ArrayList<>();
        appArgs.add(transport);
        ForkedJvm server = null;
        if ("stdio".equals(transport)) {
            appArgs.addAll(List.of(ForkedJvm.javaExecutable(), "-Dfixture.tools=" + TOOLS));
            appArgs.addAll(serverJvmArgs);
            appArgs.addAll(List.of("-cp", serverClassPath, "fixture.FixtureServer", "stdio"));
        } else {
            List<String> serverJvm = new ArrayList<>(List.of("-Dfixture.tools=" + TOOLS));
            serverJvm.addAll(serverJvmArgs);
            server = ForkedJvm.start(name + "-server", Files.createDirectories(root.resolve("server")),
                    serverJvm, serverClassPath, "fixture.FixtureServer", List.of(transport));
            String listening = server.awaitStderr(line -> line.startsWith("FIXTURE LISTENING "));
            // the SDK's servlet transports: streamable HTTP at /mcp, SSE's event stream at /sse
            String path = "sse".equals(transport) ? "/sse" : "/mcp";
            appArgs.add("http://127.0.0.1:" + listening.substring("FIXTURE LISTENING ".length()).trim() + path);
        }
        Files.writeString(appDir.resolve("mcp-policy.json"), policyFor.apply(server == null ? null : "url:" + appArgs.get(1)));
        ForkedJvm app = ForkedJvm.start(name + "-app", appDir, List.of(Fixtures.javaagent(""),
                "-Dorg.slf4j.simpleLogger.log.dev.langchain4j.mcp.client.transport.stdio.ProcessStderrHandler=debug"),
                Fixtures.langchain4jClassPath(version), "fixture.lc4j.AgentApp", appArgs);
        LangChain4jApp started = new LangChain4jApp(app, server);
        app.awaitStdout(0, line -> line.equals(">> READY"));
        return started;
    }

    /** The AI service's answer to {@code message} ({@code list}, {@code call <tool> <json>}). */
    String chat(String message) throws IOException {
        return command("chat " + message);
    }

    /** {@code executeTool} called on the client itself: what it returned, or {@code ERROR ...}. */
    String direct(String tool, String json) throws IOException {
        String answer = command("direct " + tool + " " + json);
        return answer.startsWith("DIRECT ") ? answer.substring("DIRECT ".length()) : answer;
    }

    synchronized String command(String command) throws IOException {
        int from = app.stdout().size();
        app.send(command);
        return app.awaitStdout(from, line -> line.startsWith(">> ")).substring(3);
    }

    /**
     * Makes the server log complete up to now: an allowed echo with a fresh marker, then a wait for its
     * handler's line, which the server writes after everything it wrote for earlier calls.
     */
    void sync() throws IOException {
        String marker = "sync-" + syncs.incrementAndGet();
        String answer = chat("call echo {\"text\":\"" + marker + "\"}");
        if (!answer.equals("TOOL echo SAID echo: " + marker)) {
            throw new AssertionError("sync call was not answered as expected: " + answer + "\n" + dump());
        }
        awaitServerLog(line -> line.startsWith("HANDLER RAN echo ") && line.contains(marker));
    }

    void awaitServerLog(Predicate<String> match) {
        if (server != null) {
            server.awaitStderr(match);
        } else {
            app.awaitStderr(line -> line.contains(RELAYED) && match.test(relayed(line)));
        }
    }

    /** The server's stderr: its own JVM's, or the lines LangChain4j's stdio transport logged. */
    List<String> serverLog() {
        if (server != null) {
            return server.stderr();
        }
        List<String> lines = new ArrayList<>();
        for (String line : app.stderr()) {
            if (line.contains(RELAYED)) {
                lines.add(relayed(line));
            }
        }
        return lines;
    }

    /** The app JVM's own stderr (the agent's lines and decisions), without the relayed server lines. */
    List<String> appLog() {
        List<String> lines = new ArrayList<>();
        for (String line : app.stderr()) {
            if (!line.contains(RELAYED)) {
                lines.add(line);
            }
        }
        return lines;
    }

    List<String> appOutput() {
        return app.stdout();
    }

    void awaitAppLog(Predicate<String> match) {
        app.awaitStderr(line -> !line.contains(RELAYED) && match.test(line));
    }

    /** The app's stderr lines containing {@code fragment}, once there are {@code count} (or none came for a while). */
    List<String> awaitAppLogCount(String fragment, int count) {
        return app.awaitStderrCount(line -> !line.contains(RELAYED) && line.contains(fragment), count, java.time.Duration.ofSeconds(5));
    }

    private static String relayed(String line) {
        String rest = line.substring(line.indexOf(RELAYED) + RELAYED.length());
        int end = rest.indexOf("] ");
        return end < 0 ? rest : rest.substring(end + 2);
    }

    String dump() {
        return app.dump() + (server == null ? "" : "\n" + server.dump());
    }

    @Override
    public void close() throws IOException {
        try {
            if (app.isAlive()) {
                app.send("quit");
                app.waitForExit();
            }
        } catch (IOException | InterruptedException | AssertionError e) {
            // closing anyway
        } finally {
            app.close();
            if (server != null) {
                server.close();
            }
        }
    }
}
