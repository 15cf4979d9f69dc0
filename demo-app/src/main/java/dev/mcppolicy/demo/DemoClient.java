package dev.mcppolicy.demo;

import dev.mcppolicy.demo.client.DemoSession;
import dev.mcppolicy.demo.client.Operator;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A scripted AI agent (no LLM) that plays one session against the sandbox server and prints every
 * call and its outcome.
 *
 * <pre>
 * java -cp demo-app.jar dev.mcppolicy.demo.DemoClient [--client-name NAME] [--server-log FILE] \
 *     [--admin http://127.0.0.1:PORT/ --admin-token-file FILE] [--url http://127.0.0.1:PORT/mcp | -- SERVER COMMAND...]
 * </pre>
 *
 * Over stdio it starts the server itself: by default {@code java -cp <this classpath>
 * dev.mcppolicy.demo.SandboxServer}, or the command after {@code --}, so a {@code -javaagent:} can be
 * added to the server's JVM. The server's stderr (its log) goes to {@code --server-log}, else to this
 * process's stderr with a {@code [server]} prefix. Calls the policy holds for approval are decided by an
 * {@link Operator} through the policy agent's admin endpoint: the one {@code --admin} names, or over stdio
 * the one the agent announces in the server's log. Exit status: 0 when the session ran, whatever
 * the calls returned; 1 when the server could not be reached; 2 for a usage error.
 */
public final class DemoClient {
    private DemoClient() {
    }

    public static void main(String[] args) throws IOException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println("usage: DemoClient [--client-name NAME] [--server-log FILE] "
                    + "[--admin http://127.0.0.1:PORT/ --admin-token-file FILE] [--url http://127.0.0.1:PORT/mcp | -- SERVER COMMAND...]");
            System.exit(2);
            return;
        }
        System.exit(run(options, System.out));
    }

    static int run(Options options, PrintStream out) throws IOException {
        BufferedWriter serverLog = options.serverLog == null ? null
                : Files.newBufferedWriter(options.serverLog, StandardCharsets.UTF_8);
        AtomicReference<Operator> operator = new AtomicReference<>(options.admin == null ? null
                : new Operator(options.admin, options.adminTokenFile));
        McpClientTransport transport = options.url != null ? http(options.url) : stdio(options.serverCommand, serverLog, operator);
        out.println("== mcp-policy demo: a scripted agent session against the sandbox server ==");
        out.println("Server: " + (options.url != null ? options.url : "stdio: " + String.join(" ", options.serverCommand)));
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(Implementation.builder(options.clientName, "1.0").build())
                .requestTimeout(Duration.ofSeconds(90))
                .build();
        try {
            new DemoSession(client, out, operator::get).play();
            return 0;
        } catch (RuntimeException e) {
            out.println("The session stopped: " + e);
            return 1;
        } finally {
            client.closeGracefully();
            if (serverLog != null) {
                synchronized (serverLog) {
                    serverLog.close();
                }
            }
        }
    }

    private static McpClientTransport http(URI url) {
        String base = url.getScheme() + "://" + url.getAuthority();
        return HttpClientStreamableHttpTransport.builder(base).endpoint(url.getRawPath()).build();
    }

    /** Starts the server; its log goes to {@code serverLog}, and the admin endpoint it announces there to {@code operator}. */
    private static McpClientTransport stdio(List<String> command, BufferedWriter serverLog, AtomicReference<Operator> operator) {
        ServerParameters server = ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()))
                .build();
        StdioClientTransport transport = new StdioClientTransport(server, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> {
            Operator announced = Operator.fromLogLine(line);
            if (announced != null) {
                operator.compareAndSet(null, announced);
            }
            if (serverLog == null) {
                System.err.println("[server] " + line);
                return;
            }
            synchronized (serverLog) {
                try {
                    serverLog.write(line);
                    serverLog.newLine();
                    serverLog.flush();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });
        return transport;
    }

    static final class Options {
        String clientName = "demo-agent";
        Path serverLog;
        URI url;
        URI admin;
        Path adminTokenFile;
        List<String> serverCommand = defaultServerCommand();

        static Options parse(String[] args) {
            Options options = new Options();
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                if (flag.equals("--")) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("-- must be followed by the server command");
                    }
                    options.serverCommand = List.of(args).subList(i + 1, args.length);
                    break;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("unknown or incomplete option: " + flag);
                }
                String value = args[++i];
                switch (flag) {
                    case "--client-name":
                        options.clientName = value;
                        break;
                    case "--server-log":
                        options.serverLog = Path.of(value);
                        break;
                    case "--url":
                        options.url = URI.create(value);
                        break;
                    case "--admin":
                        options.admin = URI.create(value.endsWith("/") ? value : value + "/");
                        break;
                    case "--admin-token-file":
                        options.adminTokenFile = Path.of(value);
                        break;
                    default:
                        throw new IllegalArgumentException("unknown option: " + flag);
                }
            }
            if ((options.admin == null) != (options.adminTokenFile == null)) {
                throw new IllegalArgumentException("--admin and --admin-token-file go together");
            }
            return options;
        }

        private static List<String> defaultServerCommand() {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(SandboxServer.class.getName());
            return command;
        }
    }
}
