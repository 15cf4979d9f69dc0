package dev.mcppolicy.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The sandbox server over streamable HTTP: it answers on 127.0.0.1 and nowhere else. */
class SandboxServerHttpIT {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/mcp");

    private static ForkedProcess server;
    private static int port;

    @BeforeAll
    static void startServer() throws Exception {
        server = ForkedProcess.java("-jar", ForkedProcess.DEMO_JAR.toString(), "--http", "0");
        port = Integer.parseInt(server.awaitStderr(LISTENING, Duration.ofSeconds(60)));
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @Test
    void answersToolCallsOverStreamableHttp() {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + port)
                        .endpoint("/mcp").build())
                .clientInfo(Implementation.builder("http-it", "1.0").build())
                .requestTimeout(Duration.ofSeconds(30))
                .build();
        try {
            client.initialize();

            assertThat(client.listTools().tools()).hasSize(8);
            CallToolResult result = client.callTool(CallToolRequest.builder("run_command")
                    .arguments(Map.of("command", "echo over http")).build());
            assertThat(result.isError()).isFalse();
            assertThat(result.structuredContent()).isInstanceOf(Map.class);
            assertThat(((Map<?, ?>) result.structuredContent()).get("stdout")).isEqualTo("over http\n");
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void refusesRequestsForAnotherHost() throws IOException {
        String response = rawPost("evil.example:" + port);

        assertThat(response).startsWith("HTTP/1.1 421");
    }

    @Test
    void acceptsNoConnectionOnOtherInterfaces() throws IOException {
        Optional<InetAddress> external = nonLoopbackAddress();
        assumeTrue(external.isPresent(), "this machine has no address besides loopback to try");

        assertThatThrownBy(() -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(external.get(), port), 5_000);
            }
        }).isInstanceOf(IOException.class);
    }

    private static String rawPost(String hostHeader) throws IOException {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: " + hostHeader + "\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nContent-Length: " + body.length()
                    + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws IOException {
        for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!network.isUp() || network.isLoopback()) {
                continue;
            }
            List<InetAddress> addresses = Collections.list(network.getInetAddresses());
            for (InetAddress address : addresses) {
                if (!address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
                    return Optional.of(address);
                }
            }
        }
        return Optional.empty();
    }
}
