package dev.mcppolicy.demo.conformance;

import dev.mcppolicy.demo.HttpEndpoint;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fixture server that {@code @modelcontextprotocol/conformance server} tests: every tool, prompt,
 * resource and completion its scenarios ask for by name, on the Java SDK, over streamable HTTP on
 * 127.0.0.1 with the demo's Host and Origin checks. Like the sandbox server it holds no policy code, so
 * the same suite can run against it with and without the policy agent.
 *
 * <pre>
 * java -cp demo-app.jar dev.mcppolicy.demo.conformance.ConformanceServer [--port PORT]
 * </pre>
 *
 * {@code --port 0} (the default) picks a free port. It logs {@code listening on URL} on stderr once it
 * accepts connections; every log line goes to stderr.
 */
public final class ConformanceServer {
    private static final Logger LOG = LoggerFactory.getLogger(ConformanceServer.class);

    private ConformanceServer() {
    }

    public static void main(String[] args) throws Exception {
        int port;
        try {
            port = parsePort(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println("usage: java -cp demo-app.jar " + ConformanceServer.class.getName() + " [--port PORT]");
            System.exit(2);
            return;
        }
        HttpServletStreamableServerTransportProvider transport =
                HttpEndpoint.loopbackTransport(McpJsonDefaults.getMapper());
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo("mcp-policy-conformance-fixture", "0.1.0")
                .capabilities(ServerCapabilities.builder()
                        .tools(false)
                        .prompts(false)
                        .resources(true, false)
                        .completions()
                        .logging()
                        .build())
                .tools(ConformanceTools.all())
                .prompts(ConformancePrompts.all())
                .completions(ConformancePrompts.completions())
                .resources(ConformanceResources.all())
                .resourceTemplates(ConformanceResources.templates())
                // Sampling and elicitation wait on the client; a client that never answers must not
                // hold a request thread forever.
                .requestTimeout(Duration.ofSeconds(30))
                .build();
        HttpEndpoint endpoint = HttpEndpoint.start(port, transport);
        LOG.info("conformance fixture listening on {}", endpoint.url());
        endpoint.serveUntilShutdown(server);
    }

    private static int parsePort(String[] args) {
        if (args.length == 0) {
            return 0;
        }
        if (args.length == 2 && args[0].equals("--port")) {
            return HttpEndpoint.parsePort(args[0], args[1]);
        }
        throw new IllegalArgumentException("unknown or incomplete options: " + String.join(" ", args));
    }
}
