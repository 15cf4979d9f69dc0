package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.callText;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The admin page in a real headless Chromium, driven over the DevTools protocol, against a real stdio
 * server (SDK 2.1.0) under the real agent: a wrong token refused at the login form, the right one let in;
 * the decisions table updating after a call, a counter's bar filling, a reload showing the new hash and
 * text; the token kept in the page only (no cookie, no storage, gone from the address bar); the page
 * fitting a laptop screen. Saves {@code target/admin-page.png}.
 */
class AdminPageIT {
    private static final String POLICY = """
            { "version": "1", "default": "deny",
              "tools": {
                "echo": {},
                "delete_everything": { "action": "deny", "reason": "destructive tools are disabled" },
                "limited": { "limits": [ { "counter": "limited", "window": "hour", "max": 4, "scope": "global" } ] },
                "audit_me": { "mode": "monitor", "action": "deny", "reason": "would be blocked" }
              } }
            """;

    @Test
    void logInSeeDecisionsArriveACounterFillAndAReloadsNewHash() throws Exception {
        Path dir = Fixtures.workDir("AdminPageIT");
        Path policy = dir.resolve("mcp-policy.json");
        Files.writeString(policy, POLICY);
        try (ForkedJvm server = StdioRpc.start("AdminPageIT", "2.1.0", dir, List.of(), "admin=127.0.0.1:0");
                Chromium chromium = Chromium.start(dir)) {
            initialize(server);
            AdminEndpoint admin = AdminEndpoint.of(server, null);
            String sha256 = server.awaitStderr(line -> line.startsWith("[mcp-policy] policy " + policy)).replaceAll(".* sha256=(\\w+) .*", "$1");

            String page = chromium.open(admin.url.toString());
            chromium.await(page, "!document.getElementById('login').hidden", "document.body.innerText");
            logIn(chromium, page, "not-the-token-not-the-token");
            assertThat(chromium.await(page, "document.getElementById('login-error').textContent", "document.body.innerText").asText())
                    .isEqualTo("That token was refused.");
            assertThat(chromium.evaluate(page, "document.getElementById('app').hidden").asBoolean()).isTrue();

            logIn(chromium, page, admin.token);
            chromium.await(page, "!document.getElementById('app').hidden && document.getElementById('policy-sha').textContent === '"
                    + sha256 + "'", "document.getElementById('policy-sha').textContent");
            assertThat(chromium.evaluate(page, "document.getElementById('policy-source').textContent").asText()).isEqualTo(POLICY);
            assertThat(chromium.evaluate(page, "document.cookie + '|' + localStorage.length + '|' + sessionStorage.length").asText())
                    .as("the token is kept in the page only").isEqualTo("|0|0");

            assertThat(callText(server, "1", "echo", "{\"text\":\"hello\"}")).isEqualTo("echo: hello");
            chromium.await(page, "(document.querySelector('#decisions tbody tr td:nth-child(3)') || {}).textContent === 'echo'",
                    "document.getElementById('decisions').innerText");
            assertThat(callText(server, "2", "delete_everything", "{}")).startsWith("Policy denied");
            assertThat(callText(server, "3", "audit_me", "{}")).isEqualTo("audit_me done");
            assertThat(chromium.await(page, "document.querySelectorAll('#decisions tbody tr').length === 3"
                    + " && Array.from(document.querySelectorAll('#decisions tbody tr')).map(r => r.cells[1].textContent + ' ' + r.cells[2].textContent).join(', ')",
                    "document.getElementById('decisions').innerText").asText())
                    .as("newest first").isEqualTo("ALLOW (would DENY) audit_me, DENY delete_everything, ALLOW echo");

            String bar = "document.querySelector('#limits tr[data-counter=\"limited\"] .fill').style.width";
            assertThat(chromium.await(page, bar, "document.getElementById('limits').innerText").asText()).isEqualTo("0%");
            assertThat(callText(server, "4", "limited", "{}")).isEqualTo("limited done");
            assertThat(callText(server, "5", "limited", "{}")).isEqualTo("limited done");
            assertThat(callText(server, "6", "limited", "{}")).isEqualTo("limited done");
            chromium.await(page, bar + " === '75%'", bar);
            assertThat(chromium.evaluate(page, "document.querySelector('#limits tr[data-counter=\"limited\"]').cells[3].textContent").asText())
                    .isEqualTo("3 / 4");

            String next = POLICY.replace("\"max\": 4", "\"max\": 6");
            Files.writeString(policy, next);
            String newSha256 = server.awaitStderr(line -> line.startsWith("[mcp-policy] policy reloaded: ")).replaceAll(".* -> (\\w+) .*", "$1");
            chromium.await(page, "document.getElementById('policy-sha').textContent === '" + newSha256 + "'"
                    + " && document.getElementById('policy-source').textContent.includes('\"max\": 6')",
                    "document.getElementById('policy-sha').textContent");
            chromium.await(page, bar + " === '50%'", bar);
            assertThat(chromium.evaluate(page, "document.getElementById('last-reload').textContent").asText()).startsWith("applied ");
            assertThat(chromium.evaluate(page, "document.documentElement.scrollWidth <= window.innerWidth").asBoolean())
                    .as("no sideways scrolling at 1440 x 900").isTrue();
            Path screenshot = Path.of("target", "admin-page.png");
            chromium.screenshot(page, screenshot);
            assertThat(Files.size(screenshot)).isGreaterThan(10_000);

            String byFragment = chromium.open(admin.url + "#token=" + admin.token);
            chromium.await(byFragment, "!document.getElementById('app').hidden && document.getElementById('policy-sha').textContent === '"
                    + newSha256 + "'", "document.body.innerText");
            assertThat(chromium.evaluate(byFragment, "location.href").asText()).as("the token leaves the address bar")
                    .isEqualTo(admin.url.toString());
            assertThat(server.stderr()).noneMatch(line -> line.contains("advice error"));
        }
    }

    private static void logIn(Chromium chromium, String page, String token) throws Exception {
        chromium.evaluate(page, "document.getElementById('login-error').textContent = '';"
                + " document.getElementById('token').value = " + CallMix.JSON.writeValueAsString(token) + ";"
                + " document.querySelector('#login button').click(); true");
    }
}
