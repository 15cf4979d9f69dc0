package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.callText;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The admin endpoint's JSON API (SPEC §8, issue 12 §3) on a real stdio server (SDK 2.1.0) under the real
 * agent, asked with java.net.http: status, recent decisions newest first, counters filling, the policy as
 * loaded, a reload's new hash; refused without the token, with a wrong one, with a Host that does not
 * name the server and from a foreign Origin; a non-loopback address refused at start while the app runs
 * on; and, with {@code admin} unset, none of its classes loaded.
 */
class AdminApiIT {
    private static final String POLICY = """
            { "version": "1", "default": "deny",
              "tools": {
                "echo": {},
                "delete_everything": { "action": "deny", "reason": "destructive tools are disabled" },
                "limited": { "limits": [ { "counter": "limited", "window": "hour", "max": 2, "scope": "session" } ] }
              } }
            """;

    @Test
    void statusDecisionsLimitsAndPolicyFollowTheCallsAndAReload() throws Exception {
        Path dir = Fixtures.workDir("AdminApiIT");
        Path policy = dir.resolve("mcp-policy.json");
        Files.writeString(policy, POLICY);
        Path classes = dir.resolve("classes.log");
        try (ForkedJvm server = StdioRpc.start("AdminApiIT", "2.1.0", dir, List.of("-Xlog:class+load:file=" + classes), "admin=127.0.0.1:0")) {
            initialize(server);
            AdminEndpoint admin = AdminEndpoint.of(server, null);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(admin.tokenFile))).isEqualTo("rw-------");
            assertThat(admin.token).hasSizeGreaterThanOrEqualTo(43);
            String sha256 = server.awaitStderr(line -> line.startsWith("[mcp-policy] policy " + policy)).replaceAll(".* sha256=(\\w+) .*", "$1");

            JsonNode status = admin.json("/api/status");
            assertThat(status.path("agent").path("version").asText()).isNotEmpty().isNotEqualTo("unknown");
            assertThat(status.path("agent").path("pid").asLong()).isEqualTo(server.pid());
            assertThat(status.path("policy").path("path").asText()).isEqualTo(policy.toString());
            assertThat(status.path("policy").path("sha256").asText()).isEqualTo(sha256);
            assertThat(status.path("policy").path("mode").asText()).isEqualTo("enforce");
            assertThat(status.path("policy").path("default").asText()).isEqualTo("deny");
            assertThat(status.path("reload").path("last").isNull()).isTrue();
            assertThat(status.path("instrumented").findValuesAsText("type")).contains("io.modelcontextprotocol.server.McpAsyncServer");
            assertThat(status.path("canary").path("outcome").asText()).isEqualTo("hooks_fire");
            assertThat(status.toString()).as("the token is never shown").doesNotContain(admin.token);

            assertThat(callText(server, "1", "echo", "{\"text\":\"a\"}")).isEqualTo("echo: a");
            assertThat(callText(server, "2", "delete_everything", "{}")).startsWith("Policy denied tool 'delete_everything'");
            assertThat(callText(server, "3", "limited", "{}")).isEqualTo("limited done");

            JsonNode decisions = admin.json("/api/decisions?limit=2");
            assertThat(decisions.path("total").asLong()).isEqualTo(3);
            assertThat(decisions.path("kept").asInt()).isEqualTo(500);
            assertThat(decisions.path("decisions").findValuesAsText("tool")).as("newest first, at most limit")
                    .containsExactly("limited", "delete_everything");
            JsonNode denied = decisions.path("decisions").path(1);
            assertThat(names(denied)).as("the audit record's fields").containsExactly("ts", "decision", "would", "tool", "side", "server",
                    "rule", "arg", "reason", "retry_after", "session", "client", "arg_keys", "args_sha256", "took_us");
            assertThat(denied.path("decision").asText()).isEqualTo("DENY");
            assertThat(denied.path("rule").asText()).isEqualTo("/tools/delete_everything");
            assertThat(denied.path("reason").asText()).isEqualTo("destructive tools are disabled");
            assertThat(admin.json("/api/decisions").path("decisions")).hasSize(3);

            JsonNode counter = admin.json("/api/limits").path("counters").path(0);
            assertThat(counter.path("counter").asText()).isEqualTo("limited");
            assertThat(counter.path("scope").asText()).isEqualTo("session");
            assertThat(counter.path("key").asText()).isEqualTo(decisions.path("decisions").path(0).path("session").asText());
            assertThat(counter.path("used").asLong()).isEqualTo(1);
            assertThat(counter.path("max").asLong()).isEqualTo(2);
            assertThat(counter.path("window").asText()).isEqualTo("1h");
            assertThat(counter.path("retry_after_ms").asLong()).isZero();
            assertThat(callText(server, "4", "limited", "{}")).isEqualTo("limited done");
            assertThat(callText(server, "5", "limited", "{}")).contains("retry after");
            counter = admin.json("/api/limits").path("counters").path(0);
            assertThat(counter.path("used").asLong()).as("full").isEqualTo(2);
            assertThat(counter.path("retry_after_ms").asLong()).isPositive();

            JsonNode loaded = admin.json("/api/policy");
            assertThat(loaded.path("source").asText()).isEqualTo(POLICY);
            assertThat(loaded.path("sha256").asText()).isEqualTo(sha256);
            assertThat(loaded.path("format").asText()).isEqualTo("json");

            String next = POLICY.replace("\"max\": 2", "\"max\": 3");
            Files.writeString(policy, next);
            String reloaded = server.awaitStderr(line -> line.startsWith("[mcp-policy] policy reloaded: "));
            String newSha256 = reloaded.replaceAll(".* -> (\\w+) .*", "$1");
            assertThat(newSha256).isNotEqualTo(sha256);
            status = admin.json("/api/status");
            assertThat(status.path("policy").path("sha256").asText()).isEqualTo(newSha256);
            assertThat(status.path("reload").path("last").path("outcome").asText()).isEqualTo("applied");
            assertThat(status.path("reload").path("last").path("from").asText()).isEqualTo(sha256);
            assertThat(status.path("reload").path("last").path("to").asText()).isEqualTo(newSha256);
            assertThat(admin.json("/api/policy").path("source").asText()).isEqualTo(next);
            assertThat(admin.json("/api/limits").path("counters").path(0).path("max").asLong()).as("the new max, on the same counts")
                    .isEqualTo(3);
            assertThat(admin.json("/api/limits").path("counters").path(0).path("used").asLong()).isEqualTo(2);

            assertRefusals(admin);
            assertThat(server.stderr()).noneMatch(line -> line.contains(admin.token));
            assertThat(server.stderr()).noneMatch(line -> line.contains("advice error"));
        }
        assertThat(Files.readString(classes)).as("with admin on, its classes did load").contains("com.sun.net.httpserver.HttpServer ")
                .contains("dev.mcppolicy.agent.admin.AdminServer ");
    }

    private static void assertRefusals(AdminEndpoint admin) throws Exception {
        HttpResponse<String> missing = admin.get("/api/status", null, null);
        assertThat(missing.statusCode()).isEqualTo(401);
        assertThat(missing.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"mcp-policy\"");
        assertThat(missing.body()).doesNotContain("\"policy\"");
        assertThat(admin.get("/api/decisions", "Bearer " + admin.token + "x", null).statusCode()).as("a wrong token").isEqualTo(401);
        assertThat(admin.get("/api/policy", "Bearer wrong-token-wrong-token", null).statusCode()).isEqualTo(401);
        assertThat(admin.get("/api/limits", admin.token, null).statusCode()).as("not a bearer token").isEqualTo(401);
        assertThat(admin.statusLineWithHost("/api/status", "127.0.0.1:" + admin.port)).isEqualTo("HTTP/1.1 200 OK");
        assertThat(admin.statusLineWithHost("/api/status", "attacker.example:" + admin.port)).as("DNS rebinding").isEqualTo("HTTP/1.1 403 Forbidden");
        assertThat(admin.statusLineWithHost("/", "attacker.example:" + admin.port)).isEqualTo("HTTP/1.1 403 Forbidden");
        HttpResponse<String> foreign = admin.get("/api/status", "Bearer " + admin.token, "http://attacker.example");
        assertThat(foreign.statusCode()).as("a foreign Origin, even with the token").isEqualTo(403);
        assertThat(foreign.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        assertThat(admin.get("/api/status", "Bearer " + admin.token, "http://127.0.0.1:" + admin.port).statusCode()).isEqualTo(200);
        HttpResponse<String> page = admin.get("/", null, null);
        assertThat(page.statusCode()).as("the page holds no data: it needs no token").isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy")).get().asString().startsWith("default-src 'none'; script-src 'sha256-");
        assertThat(admin.json("/api/approvals").path("pending")).as("nothing held").isEmpty();
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void aConfiguredTokenOnLocalhostIsTheOneAdmittedAndIsNeverPrinted() throws Exception {
        Path dir = Fixtures.workDir("AdminApiIT-token");
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        String token = "configured-token-0123456789";
        try (ForkedJvm server = StdioRpc.start("AdminApiIT-token", "2.1.0", dir, List.of("-Dmcppolicy.admin_token=" + token),
                "admin=localhost:0")) {
            initialize(server);
            AdminEndpoint admin = AdminEndpoint.of(server, token);
            assertThat(admin.tokenFile).isNull();
            assertThat(server.stderr()).anyMatch(line -> line.contains("token from admin_token (-Dmcppolicy.admin_token)"))
                    .anyMatch(line -> line.contains("admin_token=(set) (-Dmcppolicy.admin_token)"))
                    .noneMatch(line -> line.contains(token));
            assertThat(admin.json("/api/status").path("configuration").toString()).contains("(set)").doesNotContain(token);
            assertThat(admin.get("/api/status", "Bearer random-" + token, null).statusCode()).isEqualTo(401);
        }
    }

    @Test
    void aNonLoopbackAddressIsRefusedAtStartAndTheAppRunsOn() throws Exception {
        Path dir = Fixtures.workDir("AdminApiIT-refused");
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        try (ForkedJvm server = StdioRpc.start("AdminApiIT-refused", "2.1.0", dir, List.of(), "admin=0.0.0.0:0")) {
            initialize(server);
            assertThat(server.awaitStderr(line -> line.contains("admin: "))).isEqualTo("[mcp-policy] ERROR admin: 0.0.0.0:0 is not a loopback"
                    + " address (0.0.0.0); the admin endpoint listens only on 127.0.0.1, ::1 or localhost; the admin endpoint is not started");
            assertThat(callText(server, "1", "echo", "{\"text\":\"still here\"}")).isEqualTo("echo: still here");
            assertThat(server.stderr()).noneMatch(line -> line.startsWith("[mcp-policy] admin: "));
        }
    }

    @Test
    void withAdminUnsetNoneOfItsClassesLoad() throws Exception {
        Path dir = Fixtures.workDir("AdminApiIT-off");
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        Path classes = dir.resolve("classes.log");
        try (ForkedJvm server = StdioRpc.start("AdminApiIT-off", "2.1.0", dir, List.of("-Xlog:class+load:file=" + classes), "")) {
            initialize(server);
            assertThat(callText(server, "1", "echo", "{\"text\":\"a\"}")).isEqualTo("echo: a");
            server.awaitStderr(line -> line.contains("decision=ALLOW tool=echo"));
            assertThat(server.stderr()).anyMatch(line -> line.contains("admin=off (default)"))
                    .noneMatch(line -> line.contains("[mcp-policy] admin") || line.contains("ERROR admin"));
        }
        String loaded = Files.readString(classes);
        assertThat(loaded).as("the class-load log was written").contains("dev.mcppolicy.agent.PolicyLoader ");
        assertThat(loaded).doesNotContain("com.sun.net.httpserver").doesNotContain("dev.mcppolicy.agent.admin.")
                .doesNotContain("dev.mcppolicy.agent.log.RecentDecisions");
    }
}
