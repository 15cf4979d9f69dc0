package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A forked app's admin endpoint, found from its startup summary, asked with java.net.http. */
final class AdminEndpoint {
    private static final Pattern STARTED = Pattern.compile(
            "\\[mcp-policy] admin: (http://127\\.0\\.0\\.1:(\\d+)/) \\(loopback only; (?:token in (\\S+) \\(readable only by this user\\)|token from .*)\\)");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    final URI url;
    final int port;
    final String token;
    /** Where the agent wrote its random token, or {@code null} when it was configured. */
    final Path tokenFile;

    private AdminEndpoint(URI url, int port, String token, Path tokenFile) {
        this.url = url;
        this.port = port;
        this.token = token;
        this.tokenFile = tokenFile;
    }

    /** Waits for the summary's admin line; the token is read from the file it names, or is {@code configuredToken}. */
    static AdminEndpoint of(ForkedJvm app, String configuredToken) throws IOException {
        Matcher line = STARTED.matcher(app.awaitStderr(l -> l.startsWith("[mcp-policy] admin: ")
                || l.startsWith("[mcp-policy] ERROR admin: ")));
        assertThat(line.matches()).as("the admin line of the startup summary\n" + app.dump()).isTrue();
        Path file = line.group(3) == null ? null : Path.of(line.group(3));
        String token = file == null ? configuredToken : Files.readString(file, StandardCharsets.UTF_8);
        return new AdminEndpoint(URI.create(line.group(1)), Integer.parseInt(line.group(2)), token, file);
    }

    HttpResponse<String> get(String path, String authorization, String origin) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(url.resolve(path)).timeout(Duration.ofSeconds(30)).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (origin != null) {
            request.header("Origin", origin);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@code POST path} with the token and a JSON body (or none). */
    HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(url.resolve(path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .POST(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@code GET path} with the token; fails unless the answer is 200 JSON. */
    JsonNode json(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = get(path, "Bearer " + token, null);
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        return CallMix.JSON.readTree(response.body());
    }

    /**
     * A request with a {@code Host} header of our choosing (java.net.http will not send one), written on
     * a plain socket; returns the status line.
     */
    String statusLineWithHost(String path, String host) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + token
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return answer.lines().findFirst().orElse("");
        }
    }
}
