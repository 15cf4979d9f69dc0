package dev.mcppolicy.demo;

import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * An embedded Jetty that serves one MCP streamable-HTTP transport at {@code /mcp}, on the loopback
 * interface only: a sandbox that runs shell commands must not be reachable from the network.
 */
final class HttpEndpoint {
    static final String HOST = "127.0.0.1";
    static final String PATH = "/mcp";

    private final Server jetty;
    private final int port;

    private HttpEndpoint(Server jetty, int port) {
        this.jetty = jetty;
        this.port = port;
    }

    /** Serves {@code transport} on {@code port}; 0 picks a free port, which {@link #url()} then names. */
    static HttpEndpoint start(int port, HttpServletStreamableServerTransportProvider transport) throws Exception {
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

    String url() {
        return "http://" + HOST + ":" + port + PATH;
    }

    void join() throws InterruptedException {
        jetty.join();
    }

    void stop() throws Exception {
        jetty.stop();
    }
}
