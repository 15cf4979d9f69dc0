package dev.mcppolicy.agent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mcppolicy.agent.admin.AdminRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar mcp-policy-agent.jar approvals list|approve ID|deny ID [--reason R] [--approver NAME]
 * [--admin 127.0.0.1:PORT] [--token-file F]} (SPEC §6, §9): the held calls of a running agent, through its
 * admin endpoint. Without {@code --admin} it takes the one running agent that left its address in
 * {@code ~/.mcp-policy/agents/}; the token comes from {@code --token-file}, that agent's random-token file,
 * or {@code MCPPOLICY_ADMIN_TOKEN}. Exit codes: 0 done, 1 refused (unknown or spent id, no agent), 2 usage.
 */
public final class ApprovalsCommand {
    static final String USAGE = "usage: approvals list | approve ID | deny ID  [--reason R] [--approver NAME]"
            + " [--admin 127.0.0.1:PORT] [--token-file F]";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> env;

    ApprovalsCommand(PrintStream out, PrintStream err, Map<String, String> env) {
        this.out = out;
        this.err = err;
        this.env = env;
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return new ApprovalsCommand(out, err, System.getenv()).dispatch(args);
    }

    int dispatch(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        List<String> words = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("--")) {
                if (i + 1 >= args.length || !List.of("--reason", "--approver", "--admin", "--token-file").contains(args[i])) {
                    err.println("unknown or incomplete option " + args[i]);
                    err.println(USAGE);
                    return 2;
                }
                options.put(args[i], args[++i]);
            } else {
                words.add(args[i]);
            }
        }
        boolean list = words.size() == 1 && words.get(0).equals("list");
        boolean decide = words.size() == 2 && (words.get(0).equals("approve") || words.get(0).equals("deny"));
        if (!list && !decide) {
            err.println(USAGE);
            return 2;
        }
        try {
            Target target = target(options);
            if (target == null) {
                return 1;
            }
            return list ? list(target) : decide(target, words.get(0), words.get(1), options);
        } catch (IOException e) {
            err.println("approvals: cannot reach the agent: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    private record Target(URI url, String token) {
    }

    private Target target(Map<String, String> options) throws IOException {
        String url;
        String tokenFile = options.get("--token-file");
        if (options.containsKey("--admin")) {
            url = "http://" + options.get("--admin") + "/";
        } else {
            List<AdminRegistry.Entry> running = AdminRegistry.running();
            if (running.isEmpty()) {
                err.println("approvals: no running agent with an admin endpoint left its address in " + AdminRegistry.directory()
                        + "; start the app with admin=127.0.0.1:0, or give --admin 127.0.0.1:PORT");
                return null;
            }
            if (running.size() > 1) {
                err.println("approvals: " + running.size() + " running agents have an admin endpoint; pick one with --admin:");
                for (AdminRegistry.Entry entry : running) {
                    err.println("  pid " + entry.pid() + ": --admin " + URI.create(entry.url()).getAuthority());
                }
                return null;
            }
            url = running.get(0).url();
            if (tokenFile == null) {
                tokenFile = running.get(0).tokenFile();
            }
        }
        String token = tokenFile != null ? Files.readString(Path.of(tokenFile), StandardCharsets.UTF_8).trim()
                : env.get("MCPPOLICY_ADMIN_TOKEN");
        if (token == null || token.isEmpty()) {
            err.println("approvals: no token: give --token-file F, or set MCPPOLICY_ADMIN_TOKEN to the agent's admin_token");
            return null;
        }
        return new Target(URI.create(url), token);
    }

    private int list(Target target) throws IOException, InterruptedException {
        HttpResponse<String> response = send(target, "api/approvals", null);
        if (response.statusCode() != 200) {
            return refused(response);
        }
        JsonNode pending = JSON.readTree(response.body()).path("pending");
        if (pending.isEmpty()) {
            out.println("no call is waiting for approval");
            return 0;
        }
        for (JsonNode call : pending) {
            StringBuilder line = new StringBuilder();
            line.append(call.path("id").asText()).append("  ").append(call.path("tool").asText())
                    .append("  side=").append(call.path("side").asText())
                    .append(call.hasNonNull("server") ? "  server=" + call.path("server").asText() : "")
                    .append("  rule=").append(call.path("rule").asText())
                    .append("  session=").append(call.path("session").asText("-"))
                    .append("  client=").append(call.path("client").asText("-"));
            if (call.has("args")) {
                line.append("  args=").append(call.path("args").asText());
            } else {
                List<String> keys = new java.util.ArrayList<>();
                call.path("arg_keys").forEach(key -> keys.add(key.asText()));
                line.append("  arg_keys=").append(String.join(",", keys)).append("  args_sha256=")
                        .append(call.path("args_sha256").asText());
            }
            line.append("  asked=").append(call.path("asked_at").asText());
            out.println(line);
        }
        return 0;
    }

    private int decide(Target target, String verb, String id, Map<String, String> options) throws IOException, InterruptedException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("approver", options.getOrDefault("--approver", "cli:" + System.getProperty("user.name", "?")));
        if (options.containsKey("--reason")) {
            body.put("reason", options.get("--reason"));
        }
        HttpResponse<String> response = send(target, "api/approvals/" + id + "/" + verb, JSON.writeValueAsString(body));
        if (response.statusCode() != 200) {
            return refused(response);
        }
        out.println((verb.equals("approve") ? "approved " : "denied ") + id);
        return 0;
    }

    private int refused(HttpResponse<String> response) throws IOException {
        String message;
        try {
            message = JSON.readTree(response.body()).path("error").asText(response.body());
        } catch (IOException e) {
            message = response.body();
        }
        err.println("approvals: HTTP " + response.statusCode() + ": " + message);
        return 1;
    }

    private static HttpResponse<String> send(Target target, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(target.url().resolve(path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + target.token());
        if (body != null) {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        } else {
            request.GET();
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
