package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Approvals with the SDK's own client and server (SPEC §6, issue 13): a server call held over streamable
 * HTTP while the client's request stays open, released through the server's admin API; and a client-side
 * hold, where the request is not sent until the client app's own admin API approves it, and a denial never
 * reaches the server.
 */
class ApprovalPairIT {
    private static final String SERVER_HOLDS = """
            { "version": "1", "default": "allow",
              "tools": { "run_command": { "action": "require_approval", "approval": { "timeout": "10m" } } } }
            """;
    private static final String CLIENT_HOLDS = """
            { "version": "1", "default": "allow",
              "servers": { "fixture-server": { "default": "allow",
                "tools": { "run_command": { "action": "require_approval" } } } } }
            """;
    private static final String ALLOW_ALL = "{ \"version\": \"1\", \"default\": \"allow\" }";

    @Test
    void aServerCallHeldOverStreamableHttpRunsOnceApproved() throws Exception {
        try (McpPair pair = McpPair.start("ApprovalPairIT-server", "2.1.0", "streamable", SERVER_HOLDS, ALLOW_ALL,
                "admin=127.0.0.1:0", "")) {
            AdminEndpoint admin = AdminEndpoint.of(pair.serverJvm(), null);
            CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> call(pair, "run_command", "{\"command\":\"ls\"}"));
            pair.awaitServerLog(line -> line.contains("decision=HOLD tool=run_command side=server"));
            assertThat(held).as("the client's request stays open").isNotDone();
            JsonNode pending = admin.json("/api/approvals").path("pending");
            assertThat(pending).hasSize(1);
            HttpResponse<String> approved = admin.post("/api/approvals/" + pending.get(0).path("id").asText() + "/approve",
                    "{\"approver\":\"alice\"}");
            assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
            assertThat(held.get(60, TimeUnit.SECONDS)).isEqualTo("RESULT isError=false text=run_command done");
            pair.awaitServerLog(line -> line.contains("approval=approved approver=alice"));
            assertThat(pair.serverLog()).as(pair.dump()).containsOnlyOnce("HANDLER RAN run_command {command=ls}")
                    .noneMatch(line -> line.contains("advice error"));
        }
    }

    @Test
    void aClientSideHoldSendsNothingUntilTheClientAppsAdminApproves() throws Exception {
        try (McpPair pair = McpPair.start("ApprovalPairIT-client", "2.1.0", "stdio", ALLOW_ALL, CLIENT_HOLDS, "",
                "admin=127.0.0.1:0")) {
            AdminEndpoint admin = AdminEndpoint.of(pair.clientJvm(), null);
            CompletableFuture<String> held = CompletableFuture.supplyAsync(() -> call(pair, "run_command", "{\"command\":\"rm -rf /\"}"));
            pair.awaitClientLog(line -> line.contains("decision=HOLD tool=run_command side=client server=fixture-server"));
            JsonNode pending = admin.json("/api/approvals").path("pending");
            assertThat(pending).hasSize(1);
            assertThat(pending.get(0).path("side").asText()).isEqualTo("client");
            assertThat(pending.get(0).path("server").asText()).isEqualTo("fixture-server");
            assertThat(admin.post("/api/approvals/" + pending.get(0).path("id").asText() + "/deny", "{\"reason\":\"no\"}").statusCode())
                    .isEqualTo(200);
            assertThat(held.get(60, TimeUnit.SECONDS)).isEqualTo("RESULT isError=true text=Policy denied tool 'run_command':"
                    + " approval denied by admin: no [rule /servers/fixture-server/tools/run_command]");

            CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> call(pair, "run_command", "{\"command\":\"ls\"}"));
            pair.awaitClientLog(line -> line.contains("decision=HOLD") && line.contains("arg_keys=command")
                    && !line.contains(pending.get(0).path("id").asText()));
            JsonNode next = admin.json("/api/approvals").path("pending");
            assertThat(next).hasSize(1);
            assertThat(admin.post("/api/approvals/" + next.get(0).path("id").asText() + "/approve", null).statusCode()).isEqualTo(200);
            assertThat(second.get(60, TimeUnit.SECONDS)).isEqualTo("RESULT isError=false text=run_command done");
            pair.sync();
            assertThat(pair.serverLog()).as("the denied call never reached the server\n" + pair.dump())
                    .noneMatch(line -> line.contains("HANDLER RAN run_command {command=rm -rf /}"))
                    .containsOnlyOnce("HANDLER RAN run_command {command=ls}");
            assertThat(pair.clientLog()).noneMatch(line -> line.contains("advice error"));
        }
    }

    private static String call(McpPair pair, String tool, String json) {
        try {
            return pair.call(tool, json);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
