package dev.mcppolicy.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real headless Chromium (Debian's {@code chromium}), driven over the DevTools protocol on a WebSocket
 * with the JDK's own client: one page per {@link #open}, JavaScript evaluated in it, screenshots. Closed
 * with every process it started.
 */
final class Chromium implements AutoCloseable {
    private static final List<String> EXECUTABLES = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium");
    private static final Duration ANSWER = Duration.ofSeconds(60);

    private final ForkedJvm process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();

    private Chromium(ForkedJvm process, WebSocket socket) {
        this.process = process;
        this.socket = socket;
    }

    /** Starts Chromium; fails, naming how to install it, when it is not installed (CI's .ci/run installs it). */
    static Chromium start(Path dir) throws Exception {
        String executable = System.getProperty("chromium", "");
        if (executable.isEmpty()) {
            executable = EXECUTABLES.stream().filter(path -> Files.isExecutable(Path.of(path))).findFirst().orElseThrow(() ->
                    new AssertionError("Chromium is not installed (looked for " + EXECUTABLES + "; or set -Dchromium=PATH): install it with "
                            + "`sudo apt-get update && sudo apt-get install -y chromium` (.ci/run does this when it is missing)"));
        }
        Path profile = Files.createDirectories(dir.resolve("chromium-profile"));
        ForkedJvm process = ForkedJvm.startProcess("chromium", dir, List.of(executable, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
                "--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                "--disable-backgrounding-occluded-windows", "--window-size=1440,900", "about:blank"));
        try {
            String line = process.awaitStderr(l -> l.startsWith("DevTools listening on ws://"));
            URI endpoint = URI.create(line.substring("DevTools listening on ".length()).trim());
            Chromium[] self = new Chromium[1];
            Listener listener = new Listener(self);
            WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30))
                    .buildAsync(endpoint, listener).get(60, TimeUnit.SECONDS);
            self[0] = new Chromium(process, socket);
            return self[0];
        } catch (Throwable t) {
            process.close();
            throw t;
        }
    }

    /** Collects the text frames of each message, and completes the command it answers. */
    private static final class Listener implements WebSocket.Listener {
        private final Chromium[] owner;
        private final StringBuilder message = new StringBuilder();

        Listener(Chromium[] owner) {
            this.owner = owner;
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            message.append(data);
            if (last) {
                String text = message.toString();
                message.setLength(0);
                try {
                    JsonNode json = CallMix.JSON.readTree(text);
                    if (json.has("id") && owner[0] != null) {
                        CompletableFuture<JsonNode> answer = owner[0].waiting.remove(json.path("id").asInt());
                        if (answer != null) {
                            answer.complete(json);
                        }
                    }
                } catch (IOException e) {
                    throw new IllegalStateException("not JSON from Chromium: " + text, e);
                }
            }
            webSocket.request(1);
            return null;
        }
    }

    /** Sends one command ({@code sessionId} null: to the browser) and returns its {@code result}; fails on an error answer. */
    JsonNode send(String sessionId, String method, Map<String, Object> params) throws Exception {
        int id = ids.incrementAndGet();
        ObjectNode command = CallMix.JSON.createObjectNode();
        command.put("id", id);
        command.put("method", method);
        command.set("params", CallMix.JSON.valueToTree(params));
        if (sessionId != null) {
            command.put("sessionId", sessionId);
        }
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        waiting.put(id, answer);
        socket.sendText(CallMix.JSON.writeValueAsString(command), true).get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        JsonNode json = answer.get(ANSWER.toSeconds(), TimeUnit.SECONDS);
        if (json.has("error")) {
            throw new AssertionError(method + " failed: " + json.path("error") + "\n" + process.dump());
        }
        return json.path("result");
    }

    /** A new page at {@code url}, laptop-sized (1440 x 900); returns its session. */
    String open(String url) throws Exception {
        String target = send(null, "Target.createTarget", Map.of("url", "about:blank")).path("targetId").asText();
        String session = send(null, "Target.attachToTarget", Map.of("targetId", target, "flatten", true)).path("sessionId").asText();
        send(session, "Emulation.setDeviceMetricsOverride", Map.of("width", 1440, "height", 900, "deviceScaleFactor", 1, "mobile", false));
        send(session, "Page.enable", Map.of());
        send(session, "Page.navigate", Map.of("url", url));
        return session;
    }

    /** Evaluates {@code expression} in the page (awaiting a promise) and returns its value; fails on an exception. */
    JsonNode evaluate(String session, String expression) throws Exception {
        JsonNode result = send(session, "Runtime.evaluate", Map.of("expression", expression, "awaitPromise", true, "returnByValue", true));
        if (result.has("exceptionDetails")) {
            throw new AssertionError("in the page: " + result.path("exceptionDetails").path("exception").path("description").asText(
                    result.path("exceptionDetails").toString()));
        }
        return result.path("result").path("value");
    }

    /**
     * Waits, in the page, until {@code condition} (a JavaScript expression) is truthy, checking every 50 ms
     * for at most 30 s, and returns its value; fails naming the condition and {@code show} (an expression
     * describing what the page shows instead).
     */
    JsonNode await(String session, String condition, String show) throws Exception {
        String script = "new Promise((resolve, reject) => { const until = Date.now() + 30000; (function check() {"
                + " let value; try { value = (" + condition + "); } catch (e) { value = null; }"
                + " if (value) { resolve(value); return; }"
                + " if (Date.now() > until) { let seen; try { seen = String(" + show + "); } catch (e) { seen = String(e); }"
                + " reject(new Error('timed out waiting for ' + " + CallMix.JSON.writeValueAsString(condition) + " + '; the page shows: ' + seen)); return; }"
                + " setTimeout(check, 50); })(); })";
        return evaluate(session, script);
    }

    /** Saves a PNG of the page as it is now. */
    void screenshot(String session, Path file) throws Exception {
        String data = send(session, "Page.captureScreenshot", Map.of("format", "png")).path("data").asText();
        Files.createDirectories(file.getParent());
        Files.write(file, java.util.Base64.getDecoder().decode(data));
    }

    @Override
    public void close() {
        List<ProcessHandle> started = ProcessHandle.of(process.pid()).map(handle -> handle.descendants().toList()).orElse(List.of());
        try {
            // not awaited: the browser may close before it answers
            socket.sendText("{\"id\":" + ids.incrementAndGet() + ",\"method\":\"Browser.close\"}", true).get(10, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // the processes are ended below either way
        }
        socket.abort();
        process.close();
        for (ProcessHandle child : started) {
            child.destroyForcibly();
            child.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(t -> child).join();
        }
    }
}
