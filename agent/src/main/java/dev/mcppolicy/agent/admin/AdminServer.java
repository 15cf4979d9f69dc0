package dev.mcppolicy.agent.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.approval.Approvals;
import dev.mcppolicy.agent.approval.PendingCall;
import dev.mcppolicy.agent.log.RecentDecisions;
import dev.mcppolicy.agent.metrics.DecisionCounters;
import dev.mcppolicy.agent.status.StartupSummary;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.Base64;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local admin endpoint (SPEC §8), started only when {@code admin} is set: the JDK's own HTTP server on
 * a loopback address, two daemon threads, serving the page ({@code GET /}, static, no data in it) and the
 * JSON API behind it ({@link AdminApi}), which needs {@code Authorization: Bearer <token>}. Every request
 * must name this server in {@code Host} and come from no other {@code Origin} ({@link AdminAccess}).
 * Started from the agent's loader thread once MCP is here, never on an app thread.
 */
public final class AdminServer implements HttpHandler {
    private static final String PAGE_RESOURCE = "admin.html";

    private final AdminApi api;
    private final AdminAccess access;
    private final AdminToken token;
    private final byte[] page;
    private final String pageSecurity;
    /** The held calls this endpoint lists and decides, or {@code null}. */
    private final Approvals approvals;

    private AdminServer(AdminApi api, AdminAccess access, AdminToken token, byte[] page, Approvals approvals) {
        this.approvals = approvals;
        this.api = api;
        this.access = access;
        this.token = token;
        this.page = page;
        this.pageSecurity = "default-src 'none'; script-src '" + scriptHash(new String(page, StandardCharsets.UTF_8))
                + "'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none';"
                + " frame-ancestors 'none'";
    }

    /**
     * Starts the endpoint on {@code host:port} (port 0: a free one) and prints its URL in the startup
     * summary; a host that is not loopback, or a port that cannot be had, is one ERROR line and no
     * endpoint. Never throws.
     *
     * @param configuredToken {@code admin_token}, or {@code null} for a random one written to a file
     */
    public static void start(String host, int port, String configuredToken, String tokenSource, PolicyHolder holder,
            StartupSummary summary, DecisionCounters counters, RecentDecisions recent, Approvals approvals) {
        String shown = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        try {
            InetAddress address = InetAddress.getByName(host);
            if (!address.isLoopbackAddress()) {
                summary.adminRefused(shown + " is not a loopback address (" + address.getHostAddress()
                        + "); the admin endpoint listens only on 127.0.0.1, ::1 or localhost");
                return;
            }
            AdminToken token;
            try {
                token = configuredToken != null ? AdminToken.configured(configuredToken) : AdminToken.random();
            } catch (IOException e) {
                summary.adminRefused("cannot write a random token to " + System.getProperty("java.io.tmpdir") + " (" + e
                        + "); set admin_token");
                return;
            }
            HttpServer server = HttpServer.create(new InetSocketAddress(address, port), 16);
            int bound = server.getAddress().getPort();
            AdminApi api = new AdminApi(holder, summary.status(), counters, recent, Clock.systemUTC());
            server.createContext("/", new AdminServer(api, new AdminAccess(host, bound), token, page(), approvals));
            server.setExecutor(executor());
            server.start();
            if (approvals != null) {
                approvals.openChannel();
            }
            String url = "http://" + (address.getHostAddress().indexOf(':') >= 0 ? "[" + address.getHostAddress() + "]"
                    : address.getHostAddress()) + ":" + bound + "/";
            AdminRegistry.write(url, token.file());
            summary.adminStarted(url, token.file() != null ? "token in " + token.file() + " (readable only by this user)"
                    : "token from admin_token (" + tokenSource + ")");
        } catch (IOException | RuntimeException | LinkageError e) {
            summary.adminRefused("cannot listen on " + shown + ": " + e);
        }
    }

    private static ExecutorService executor() {
        AtomicInteger threads = new AtomicInteger();
        return Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task, "mcp-policy-admin-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    private static byte[] page() throws IOException {
        try (InputStream in = AdminServer.class.getResourceAsStream(PAGE_RESOURCE)) {
            if (in == null) {
                throw new IOException("the admin page is missing from the agent jar");
            }
            return in.readAllBytes();
        }
    }

    /** The CSP source of the page's one inline script: its SHA-256. */
    static String scriptHash(String html) {
        int open = html.indexOf("<script>");
        int close = html.indexOf("</script>", open);
        String script = html.substring(open + "<script>".length(), close);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(script.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            exchange.getResponseHeaders().set("Referrer-Policy", "no-referrer");
            exchange.getResponseHeaders().set("X-Frame-Options", "DENY");
            String refusal = access.refusal(exchange.getRequestHeaders().getFirst("Host"),
                    exchange.getRequestHeaders().getFirst("Origin"));
            if (refusal != null) {
                error(exchange, 403, refusal);
                return;
            }
            String method = exchange.getRequestMethod();
            URI uri = exchange.getRequestURI();
            String path = uri.getPath();
            if (method.equals("POST") && path.startsWith("/api/approvals/")) {
                if (!token.admits(exchange.getRequestHeaders().getFirst("Authorization"))) {
                    exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"mcp-policy\"");
                    error(exchange, 401, "Authorization: Bearer <token> is missing or wrong");
                    return;
                }
                decideApproval(exchange, path);
                return;
            }
            if (!method.equals("GET")) {
                exchange.getResponseHeaders().set("Allow", "GET");
                error(exchange, 405, "only GET is answered");
                return;
            }
            if (path.equals("/")) {
                exchange.getResponseHeaders().set("Content-Security-Policy", pageSecurity);
                send(exchange, 200, "text/html; charset=utf-8", page);
                return;
            }
            if (!path.startsWith("/api/")) {
                error(exchange, 404, "no such page: the admin page is /");
                return;
            }
            if (!token.admits(exchange.getRequestHeaders().getFirst("Authorization"))) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"mcp-policy\"");
                error(exchange, 401, "Authorization: Bearer <token> is missing or wrong");
                return;
            }
            switch (path) {
                case "/api/status":
                    json(exchange, 200, api.status());
                    break;
                case "/api/decisions":
                    Integer limit = limit(uri.getRawQuery());
                    if (limit == null) {
                        error(exchange, 400, "limit must be a number from 0 to " + RecentDecisions.CAPACITY);
                    } else {
                        json(exchange, 200, api.decisions(limit));
                    }
                    break;
                case "/api/limits":
                    json(exchange, 200, api.limits());
                    break;
                case "/api/policy":
                    json(exchange, 200, api.policy());
                    break;
                case "/api/pins":
                    json(exchange, 200, api.pins());
                    break;
                case "/api/approvals":
                    json(exchange, 200, approvalsJson());
                    break;
                default:
                    error(exchange, 404, "no such endpoint: " + path);
            }
        } catch (RuntimeException | LinkageError e) {
            error(exchange, 500, "the agent could not answer: " + e.getClass().getSimpleName());
        } finally {
            exchange.close();
        }
    }

    /** {@code GET /api/approvals}: the held calls, oldest first, as an approver sees them. */
    private String approvalsJson() {
        java.util.List<Object> pending = new java.util.ArrayList<>();
        if (approvals != null) {
            for (PendingCall call : approvals.pending()) {
                pending.add(call.describe());
            }
        }
        java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("pending", pending);
        out.put("channel", approvals != null && approvals.hasChannel());
        return dev.mcppolicy.json.CanonicalJson.write(out);
    }

    /**
     * {@code POST /api/approvals/{id}/approve} or {@code .../deny}, with an optional JSON body
     * {@code {"reason": "...", "approver": "..."}} (at most 4 KiB): 200 when it decided the call, 404 for an id
     * never held, 409 for one already decided, timed out or cancelled.
     */
    private void decideApproval(HttpExchange exchange, String path) throws IOException {
        String[] parts = path.substring("/api/approvals/".length()).split("/", -1);
        if (approvals == null || parts.length != 2 || !(parts[1].equals("approve") || parts[1].equals("deny"))) {
            error(exchange, 404, "no such endpoint: " + path + " (POST /api/approvals/{id}/approve or /deny)");
            return;
        }
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes(4097);
        }
        if (body.length > 4096) {
            error(exchange, 413, "the body is larger than 4 KiB");
            return;
        }
        String reason = null;
        String approver = "admin";
        if (body.length > 0) {
            try {
                com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
                if (json == null || !json.isObject()) {
                    error(exchange, 400, "the body must be a JSON object: {\"reason\": \"...\", \"approver\": \"...\"}");
                    return;
                }
                reason = json.hasNonNull("reason") ? json.get("reason").asText() : null;
                approver = json.hasNonNull("approver") && !json.get("approver").asText().isBlank() ? json.get("approver").asText() : approver;
            } catch (IOException e) {
                error(exchange, 400, "the body is not JSON: {\"reason\": \"...\", \"approver\": \"...\"}");
                return;
            }
        }
        String id = parts[0];
        Approvals.Answer answer = parts[1].equals("approve") ? approvals.approve(id, approver, reason) : approvals.deny(id, approver, reason);
        switch (answer) {
            case DECIDED -> {
                java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
                out.put("id", id);
                out.put("outcome", parts[1].equals("approve") ? "approved" : "denied");
                out.put("approver", approver);
                json(exchange, 200, dev.mcppolicy.json.CanonicalJson.write(out));
            }
            case ALREADY_DECIDED -> error(exchange, 409, "approval " + id + " was already decided, timed out or cancelled");
            default -> error(exchange, 404, "no call is held under approval id " + id);
        }
    }

    /** {@code limit=N} from the query, {@value AdminApi#DEFAULT_DECISIONS} without one; {@code null} when not a number in range. */
    static Integer limit(String query) {
        if (query == null || query.isEmpty()) {
            return AdminApi.DEFAULT_DECISIONS;
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith("limit=")) {
                String digits = pair.substring(6);
                if (digits.isEmpty() || digits.length() > 4 || !digits.chars().allMatch(Character::isDigit)) {
                    return null;
                }
                int limit = Integer.parseInt(digits);
                return limit > RecentDecisions.CAPACITY ? null : limit;
            }
        }
        return AdminApi.DEFAULT_DECISIONS;
    }

    private static void json(HttpExchange exchange, int status, String body) throws IOException {
        send(exchange, status, "application/json; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
    }

    private static void error(HttpExchange exchange, int status, String message) throws IOException {
        StringBuilder body = new StringBuilder("{\"error\":");
        dev.mcppolicy.json.CanonicalJson.quote(message, body);
        json(exchange, status, body.append('}').toString());
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
