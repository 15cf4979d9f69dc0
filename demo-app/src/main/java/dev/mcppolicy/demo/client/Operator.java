package dev.mcppolicy.demo.client;

import io.modelcontextprotocol.json.McpJsonDefaults;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The person who approves or denies held calls, played through the policy agent's admin API
 * ({@code GET /api/approvals}, {@code POST /api/approvals/ID/approve|deny}) with its bearer token, as the
 * admin page's buttons or {@code java -jar mcp-policy-agent.jar approvals ...} would.
 */
public final class Operator {
    /** The startup line the agent prints for its admin endpoint: {@code [mcp-policy] admin: URL (loopback only; token in FILE ...)}. */
    private static final Pattern ADMIN_LINE = Pattern.compile("\\[mcp-policy] admin: (http://\\S+/) \\(loopback only; token in (\\S+) .*");
    static final String NAME = "demo-operator";

    private final URI url;
    private final Path tokenFile;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public Operator(URI url, Path tokenFile) {
        this.url = url;
        this.tokenFile = tokenFile;
    }

    /** The operator of the admin endpoint a server's log line announces, or {@code null} for any other line. */
    public static Operator fromLogLine(String line) {
        Matcher matcher = ADMIN_LINE.matcher(line);
        return matcher.matches() ? new Operator(URI.create(matcher.group(1)), Path.of(matcher.group(2))) : null;
    }

    public URI url() {
        return url;
    }

    /** The calls waiting for a decision, oldest first, as the admin API describes them. */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> pending() throws IOException, InterruptedException {
        Map<String, Object> answer = McpJsonDefaults.getMapper().readValue(send("GET", "api/approvals", null), Map.class);
        return (List<Map<String, Object>>) answer.getOrDefault("pending", List.of());
    }

    /** Approves (or, with a reason, denies) one held call; the admin API's answer. */
    String decide(String id, boolean approve, String reason) throws IOException, InterruptedException {
        String body = McpJsonDefaults.getMapper().writeValueAsString(approve ? Map.of("approver", NAME)
                : Map.of("approver", NAME, "reason", reason));
        return send("POST", "api/approvals/" + id + (approve ? "/approve" : "/deny"), body);
    }

    private String send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(url.resolve(path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + Files.readString(tokenFile, StandardCharsets.UTF_8).strip());
        if (body == null) {
            request.GET();
        } else {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(method + " /" + path + ": HTTP " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }
}
