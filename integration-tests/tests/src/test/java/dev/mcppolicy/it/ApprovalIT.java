package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.answer;
import static dev.mcppolicy.it.StdioRpc.call;
import static dev.mcppolicy.it.StdioRpc.forSdk;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static dev.mcppolicy.it.StdioRpc.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code require_approval} end to end (SPEC §6, issue 13) on a real stdio server under the real agent (the oldest
 * supported SDK, 0.10.0, which cannot send progress notifications, a middle, the newest classic one and the SDK 2.2
 * modern API, whose calls are held in a {@code Mono} as the classic ones are, and the Quarkus MCP server, whose calls wait
 * in a Vert.x {@code Future}, and the Kotlin MCP SDK, whose calls suspend), the
 * admin endpoint its channel: a held call's handler does not run and other calls of the session go on; the
 * API approves one and denies another (in the other order than they were held), a third times out; a spent
 * or unknown id is refused; each hold and each outcome is a decision line.
 */
class ApprovalIT {
    private static final String POLICY = """
            { "version": "1", "default": "deny",
              "tools": {
                "echo": {},
                "run_command": { "action": "require_approval", "approval": { "timeout": "10m" } },
                "wire_money": { "action": "require_approval", "approval": { "timeout": "1s" } }
              } }
            """;

    @ParameterizedTest
    @ValueSource(strings = {"0.10.0", "0.14.0", "2.1.0", StdioRpc.MODERN, StdioRpc.QUARKUS_STDIO, McpPair.KOTLIN})
    void heldCallsWaitForAPersonAndRunOnlyWhenApproved(String sdkVersion) throws Exception {
        String name = "ApprovalIT-" + sdkVersion;
        Path dir = Fixtures.workDir(name);
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        Path home = Files.createDirectories(dir.resolve("home"));
        try (ForkedJvm server = StdioRpc.start(name, sdkVersion, dir, List.of("-Duser.home=" + home), "admin=127.0.0.1:0,audit=audit.jsonl")) {
            initialize(server, sdkVersion);
            AdminEndpoint admin = AdminEndpoint.of(server, null);

            server.send(forSdk(sdkVersion, call("first", "run_command", "{\"command\":\"ls first\"}")));
            server.awaitStderr(line -> line.contains("decision=HOLD tool=run_command"));
            server.send(forSdk(sdkVersion, call("second", "run_command", "{\"command\":\"ls second\"}")));
            assertThat(server.awaitStderrCount(line -> line.contains("decision=HOLD tool=run_command"), 2, Duration.ofSeconds(10)))
                    .hasSize(2).allMatch(line -> line.contains("approval_id=") && line.contains("arg_keys=command"));
            server.send(forSdk(sdkVersion, call("e1", "echo", "{\"text\":\"meanwhile\"}")));
            assertThat(text(answer(server, "e1"))).as("the session goes on while two are held")
                    .isEqualTo("echo: meanwhile");

            JsonNode pending = admin.json("/api/approvals").path("pending");
            assertThat(pending).hasSize(2);
            String firstId = pending.get(0).path("id").asText();
            String secondId = pending.get(1).path("id").asText();
            assertThat(pending.get(0).path("tool").asText()).isEqualTo("run_command");
            assertThat(pending.get(0).path("arg_keys").get(0).asText()).isEqualTo("command");
            assertThat(pending.get(0).has("args")).as("values only with log_arguments").isFalse();
            assertThat(pending.get(0).path("policy_sha256").asText()).hasSize(64);
            assertThat(server.stdout()).noneMatch(line -> line.contains("\"id\":\"first\"") || line.contains("\"id\":\"second\""));
            assertThat(server.stderr()).noneMatch(line -> line.contains("HANDLER RAN run_command"));

            // decided in the other order than held
            HttpResponse<String> denied = admin.post("/api/approvals/" + secondId + "/deny", "{\"reason\":\"not now\",\"approver\":\"bob\"}");
            assertThat(denied.statusCode()).as(denied.body()).isEqualTo(200);
            assertThat(text(answer(server, "second"))).isEqualTo("Policy denied tool 'run_command': approval denied by bob: not now"
                    + " [rule /tools/run_command]");
            HttpResponse<String> approved = admin.post("/api/approvals/" + firstId + "/approve", "{\"approver\":\"alice\"}");
            assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
            assertThat(text(answer(server, "first"))).isEqualTo("run_command done");

            assertThat(admin.post("/api/approvals/" + firstId + "/approve", null).statusCode()).as("spent: no replay").isEqualTo(409);
            assertThat(admin.post("/api/approvals/0123456789abcdef/deny", null).statusCode()).isEqualTo(404);

            // the command line, finding the agent from what it left in ~/.mcp-policy/agents
            server.send(forSdk(sdkVersion, call("third", "run_command", "{\"command\":\"ls third\"}")));
            server.awaitStderrCount(line -> line.contains("decision=HOLD tool=run_command"), 3, Duration.ofSeconds(10));
            String listed = cli(home, dir, "approvals", "list");
            assertThat(listed).contains("  run_command  side=server  rule=/tools/run_command").contains("arg_keys=command");
            String thirdId = listed.strip().split("\\s+")[0];
            assertThat(cli(home, dir, "approvals", "deny", thirdId, "--reason", "cli says no")).isEqualTo("denied " + thirdId + "\n");
            assertThat(text(answer(server, "third"))).isEqualTo("Policy denied tool 'run_command': approval denied by cli:"
                    + System.getProperty("user.name") + ": cli says no [rule /tools/run_command]");

            server.send(forSdk(sdkVersion, call("late", "wire_money", "{\"amount\":5}")));
            assertThat(text(answer(server, "late"))).isEqualTo("Policy denied tool 'wire_money': approval timed out after 1s"
                    + " [rule /tools/wire_money]");

            server.awaitStderr(line -> line.contains("approval=timed_out"));
            List<String> lines = server.stderr();
            assertThat(lines).as(server.dump())
                    .anyMatch(line -> line.contains("decision=ALLOW tool=run_command side=server rule=/tools/run_command approval_id="
                            + firstId + " approval=approved approver=alice waited_ms="))
                    .anyMatch(line -> line.contains("decision=DENY tool=run_command side=server rule=/tools/run_command reason=\"approval"
                            + " denied by bob: not now\" approval_id=" + secondId + " approval=denied approver=bob waited_ms="))
                    .anyMatch(line -> line.contains("decision=DENY tool=wire_money") && line.contains("approval=timed_out"))
                    .noneMatch(line -> line.contains("advice error"));
            assertThat(lines.stream().filter(line -> line.contains("HANDLER RAN run_command")).toList())
                    .as("only the approved call ran, once").containsExactly("HANDLER RAN run_command {command=ls first}");
            assertThat(lines).noneMatch(line -> line.contains("HANDLER RAN wire_money"));
            assertThat(AuditFiles.awaitLines(dir.resolve("audit.jsonl"), 9)).as("4 holds, 4 outcomes, 1 echo").hasSize(9)
                    .anyMatch(record -> record.contains("\"decision\":\"HOLD\"") && record.contains("\"approval\":\"held\""));
            assertThat(admin.json("/api/approvals").path("pending")).isEmpty();
            assertThat(cli(home, dir, "approvals", "list")).isEqualTo("no call is waiting for approval\n");
        }
    }

    /** {@code java -jar mcp-policy-agent.jar args...} with {@code home} as the user's home; its stdout (exit code 0). */
    private static String cli(Path home, Path dir, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(ForkedJvm.javaExecutable(), "-Duser.home=" + home, "-jar",
                Fixtures.agentJar().toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(false).start();
        process.getOutputStream().close();
        java.util.concurrent.CompletableFuture<String> err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                return e.toString();
            }
        });
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("exit code of %s%n%s%s", command, out, err.get()).isZero();
        return out;
    }
}
