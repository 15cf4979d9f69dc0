package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.answer;
import static dev.mcppolicy.it.StdioRpc.call;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static dev.mcppolicy.it.StdioRpc.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Approvals on the admin page in a real headless Chromium (SPEC §6, issue 13): a held call appears in the
 * pending panel without reloading the page, Approve releases it and the client receives the tool's result;
 * Deny with a reason reaches the client. Saves {@code target/approvals-page.png}.
 */
class ApprovalPageIT {
    private static final String POLICY = """
            { "version": "1", "default": "deny",
              "tools": { "run_command": { "action": "require_approval" } } }
            """;

    @Test
    void aHeldCallAppearsAndTheButtonsDecideIt() throws Exception {
        Path dir = Fixtures.workDir("ApprovalPageIT");
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        try (ForkedJvm server = StdioRpc.start("ApprovalPageIT", "2.1.0", dir, List.of(), "admin=127.0.0.1:0");
                Chromium chromium = Chromium.start(dir)) {
            initialize(server);
            AdminEndpoint admin = AdminEndpoint.of(server, null);
            String page = chromium.open(admin.url + "#token=" + admin.token);
            chromium.await(page, "!document.getElementById('app').hidden", "document.body.innerText");
            String rows = "document.querySelectorAll('#approvals tbody tr').length";
            assertThat(chromium.evaluate(page, rows).asInt()).isZero();

            server.send(call("approve-me", "run_command", "{\"command\":\"ls\"}"));
            chromium.await(page, rows + " === 1", "document.getElementById('approvals').innerText");
            assertThat(chromium.evaluate(page, "document.querySelector('#approvals tbody tr').cells[1].textContent").asText())
                    .isEqualTo("run_command");
            Path screenshot = Path.of("target", "approvals-page.png");
            chromium.screenshot(page, screenshot);
            assertThat(Files.size(screenshot)).isGreaterThan(10_000);
            chromium.evaluate(page, "document.querySelector('#approvals tbody tr button.approve').click(); true");
            assertThat(text(answer(server, "approve-me"))).isEqualTo("run_command done");
            chromium.await(page, rows + " === 0", "document.getElementById('approvals').innerText");

            server.send(call("deny-me", "run_command", "{\"command\":\"rm -rf /\"}"));
            chromium.await(page, rows + " === 1", "document.getElementById('approvals').innerText");
            chromium.evaluate(page, "const row = document.querySelector('#approvals tbody tr');"
                    + " row.querySelector('input.reason').value = 'not on this box'; row.querySelector('button.deny').click(); true");
            assertThat(text(answer(server, "deny-me"))).isEqualTo("Policy denied tool 'run_command': approval denied by admin page:"
                    + " not on this box [rule /tools/run_command]");

            assertThat(server.stderr()).as(server.dump())
                    .containsOnlyOnce("HANDLER RAN run_command {command=ls}")
                    .noneMatch(line -> line.contains("HANDLER RAN run_command {command=rm -rf /}"))
                    .anyMatch(line -> line.contains("approval=approved approver=\"admin page\""))
                    .anyMatch(line -> line.contains("approval=denied approver=\"admin page\""))
                    .noneMatch(line -> line.contains("advice error"));
        }
    }
}
