package dev.mcppolicy.agent.scan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcppolicy.text.DisplayText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An MCP server at a streamable-HTTP endpoint: each message is a POST that accepts {@code application/json}
 * and {@code text/event-stream}; a request's answer comes as one JSON body or as an event of an SSE stream.
 * The {@code Mcp-Session-Id} the server gives with its {@code initialize} answer, and the protocol version
 * then agreed, go with every later message; the session is ended with a DELETE on close.
 */
final class HttpChannel implements McpChannel {
    private static final int BODY_CAP = 300;

    private final ObjectMapper json;
    private final URI url;
    private final Map<String, String> headers;
    private final HttpClient client;
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "mcp-policy-scan-http-deadline");
        thread.setDaemon(true);
        return thread;
    });
    private volatile String sessionId;
    private volatile String protocolVersion;

    HttpChannel(ObjectMapper json, URI url, Map<String, String> headers, Duration connectTimeout) {
        this.json = json;
        this.url = url;
        this.headers = headers;
        this.client = HttpClient.newBuilder().connectTimeout(connectTimeout).followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    @Override
    public JsonNode request(long id, String method, ObjectNode params, long deadline) throws ScanException {
        ObjectNode request = json.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        HttpResponse<InputStream> response = post(request, method, deadline);
        if (method.equals("initialize")) {
            sessionId = response.headers().firstValue("Mcp-Session-Id").orElse(null);
        }
        String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
        // The body may stream for long (an SSE stream the server keeps open): it is cut at the deadline.
        try (InputStream body = response.body()) {
            ScheduledFuture<?> cut = watchdog.schedule(() -> closeQuietly(body), Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            try {
                return type.startsWith("text/event-stream") ? fromEvents(body, id, method, deadline) : fromJson(body, id, method, type);
            } finally {
                cut.cancel(false);
            }
        } catch (IOException e) {
            if (System.nanoTime() - deadline >= 0) {
                throw new ScanException(ScanException.TIMEOUT, "the server at " + url + " did not answer " + method + " in time");
            }
            throw new ScanException(ScanException.SERVER, "reading the answer to " + method + " from " + url + " failed: " + e.getMessage());
        }
    }

    @Override
    public void notify(String method, long deadline) throws ScanException {
        HttpResponse<InputStream> response = post(json.createObjectNode().put("jsonrpc", "2.0").put("method", method), method, deadline);
        closeQuietly(response.body());
    }

    @Override
    public void initialized(String version) {
        protocolVersion = version;
    }

    private HttpResponse<InputStream> post(ObjectNode message, String method, long deadline) throws ScanException {
        HttpRequest.Builder request = HttpRequest.newBuilder(url)
                .timeout(remaining(deadline, method))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(message.toString(), StandardCharsets.UTF_8));
        decorate(request);
        HttpResponse<InputStream> response;
        try {
            response = client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream())
                    .get(remaining(deadline, method).toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new ScanException(ScanException.TIMEOUT, "the server at " + url + " did not answer " + method + " in time");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof java.net.http.HttpTimeoutException) {
                throw new ScanException(ScanException.TIMEOUT, "the server at " + url + " did not answer " + method + " in time");
            }
            throw new ScanException(ScanException.SERVER, "cannot reach " + url + ": "
                    + (cause instanceof java.net.ConnectException ? "nothing answers there (connection refused)" : describe(cause)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ScanException(ScanException.TIMEOUT, "interrupted while waiting for the answer to " + method);
        }
        int status = response.statusCode();
        if (status < 200 || status >= 300) {
            String body = read(response.body(), BODY_CAP);
            throw new ScanException(ScanException.SERVER, "the server at " + url + " answered " + method + " with HTTP " + status
                    + (body.isBlank() ? "" : ": " + body));
        }
        return response;
    }

    private void decorate(HttpRequest.Builder request) {
        headers.forEach(request::header);
        if (sessionId != null) {
            request.header("Mcp-Session-Id", sessionId);
        }
        if (protocolVersion != null) {
            request.header("MCP-Protocol-Version", protocolVersion);
        }
    }

    private JsonNode fromJson(InputStream body, long id, String method, String type) throws IOException, ScanException {
        String text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
        JsonNode message = parse(text);
        if (message != null && message.isArray()) {
            for (JsonNode item : message) {
                if (isAnswer(item, id)) {
                    return item;
                }
            }
        } else if (isAnswer(message, id)) {
            return message;
        }
        throw new ScanException(ScanException.SERVER, "the server at " + url + " answered " + method + " with what is not its JSON-RPC answer"
                + (type.isEmpty() ? "" : " (" + type + ")") + ": " + capped(text));
    }

    /** Reads server-sent events until one carries the answer to request {@code id}; other messages are skipped. */
    private JsonNode fromEvents(InputStream body, long id, String method, long deadline) throws IOException, ScanException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        StringBuilder data = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            if (line.isEmpty()) {
                if (data.length() > 0) {
                    JsonNode message = parse(data.toString());
                    if (message == null) {
                        throw new ScanException(ScanException.SERVER, "the server at " + url + " sent an event that is not JSON-RPC while "
                                + method + " was waiting: " + capped(data.toString()));
                    }
                    if (isAnswer(message, id)) {
                        return message;
                    }
                    data.setLength(0);
                }
            } else if (line.startsWith("data:")) {
                if (data.length() > 0) {
                    data.append('\n');
                }
                data.append(line.startsWith("data: ") ? line.substring(6) : line.substring(5));
            }
        }
        if (System.nanoTime() - deadline >= 0) {
            throw new IOException("cut at the deadline");
        }
        throw new ScanException(ScanException.SERVER, "the server at " + url + " ended its event stream without answering " + method);
    }

    private static boolean isAnswer(JsonNode message, long id) {
        return message != null && message.isObject() && !message.has("method") && message.path("id").isIntegralNumber()
                && message.path("id").asLong() == id && (message.has("result") || message.has("error"));
    }

    private JsonNode parse(String text) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private static Duration remaining(long deadline, String method) throws ScanException {
        long nanos = deadline - System.nanoTime();
        if (nanos <= 0) {
            throw new ScanException(ScanException.TIMEOUT, "no time was left to send " + method);
        }
        return Duration.ofNanos(nanos);
    }

    @Override
    public void close() {
        try {
            if (sessionId != null) {
                HttpRequest.Builder delete = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(2)).DELETE();
                decorate(delete);
                client.sendAsync(delete.build(), HttpResponse.BodyHandlers.discarding()).get(2, TimeUnit.SECONDS);
            }
        } catch (ExecutionException | TimeoutException e) {
            // ending the session is a courtesy: a server that does not answer keeps it until its own timeout
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            watchdog.shutdownNow();
        }
    }

    private static String read(InputStream body, int cap) {
        try (InputStream in = body) {
            return capped(new String(in.readNBytes(cap * 4), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return "";
        }
    }

    private static String capped(String text) {
        StringBuilder shown = new StringBuilder();
        DisplayText.appendQuoted(text.strip(), '\u0000', BODY_CAP, shown);
        return shown.toString();
    }

    private static String describe(Throwable cause) {
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }

    private static void closeQuietly(InputStream body) {
        try {
            body.close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** The headers scan sets itself, which {@code --header} may not set. */
    static List<String> reservedHeaders() {
        return List.of("content-type", "accept", "mcp-session-id", "mcp-protocol-version");
    }
}
