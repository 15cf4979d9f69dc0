package dev.mcppolicy.demo;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded Jetty that serves one MCP streamable-HTTP transport at {@code /mcp}, on the loopback
 * interface only: a sandbox that runs shell commands must not be reachable from the network.
 */
public final class HttpEndpoint {
    static final String HOST = "127.0.0.1";
    static final String PATH = "/mcp";
    private static final Logger LOG = LoggerFactory.getLogger(HttpEndpoint.class);

    private final Server jetty;
    private final int port;

    private HttpEndpoint(Server jetty, int port) {
        this.jetty = jetty;
        this.port = port;
    }

    /**
     * A streamable-HTTP transport for {@link #PATH} that accepts only loopback names in {@code Host} and
     * {@code Origin}. Those checks stop DNS rebinding: a web page cannot reach this loopback server
     * through a name of its own.
     */
    public static HttpServletStreamableServerTransportProvider loopbackTransport(McpJsonMapper json) {
        return HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(json)
                .mcpEndpoint(PATH)
                .httpHeaderValidator(DefaultServerTransportSecurityValidator.builder()
                        .allowedHosts(List.of(HOST + ":*", "localhost:*"))
                        .allowedOrigins(List.of("http://" + HOST + ":*", "http://localhost:*"))
                        .build())
                .build();
    }

    /** Serves {@code transport} on {@code port}; 0 picks a free port, which {@link #url()} then names. */
    public static HttpEndpoint start(int port, HttpServletStreamableServerTransportProvider transport)
            throws Exception {
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost(HOST);
        connector.setPort(port);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder servlet = new ServletHolder("mcp", transport);
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, PATH);
        jetty.setHandler(context);
        jetty.start();
        return new HttpEndpoint(jetty, connector.getLocalPort());
    }

    /**
     * Reads a port argument: 0 to 65535.
     *
     * @throws IllegalArgumentException naming {@code flag} when {@code value} is not a port
     */
    public static int parsePort(String flag, String value) {
        try {
            int port = Integer.parseInt(value);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // Falls through to the error below.
        }
        throw new IllegalArgumentException(flag + " needs a port between 0 and 65535, not " + value);
    }

    public String url() {
        return "http://" + HOST + ":" + port + PATH;
    }

    /**
     * Serves until the JVM is asked to end; then closes {@code server}'s sessions and stops Jetty.
     */
    public void serveUntilShutdown(McpSyncServer server) throws InterruptedException {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.closeGracefully();
            try {
                jetty.stop();
            } catch (Exception e) {
                LOG.warn("stopping the HTTP endpoint failed", e);
            }
        }, "http-shutdown"));
        jetty.join();
    }
}
