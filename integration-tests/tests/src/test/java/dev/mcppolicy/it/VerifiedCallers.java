package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The scenario every HTTP server that verifies its callers itself shares (issue 32: Spring Security, Quarkus Security):
 * a key set the test serves as an identity provider does, two verified users' bursts against a {@code user} limit,
 * requests the app refuses before any MCP handling, and no token in any log line.
 */
final class VerifiedCallers {
    static final String OK = "RESULT isError=false text=";
    /** The tokens' issuer and audience. */
    static final String ISSUER = "https://idp.example.com/";
    static final String AUDIENCE = "mcp-tools";
    /** Each user's burst of calls in flight at once, and the {@code user} limit it runs into. */
    static final int BURST = 100;
    static final int PER_USER = 30;

    private VerifiedCallers() {
    }

    /** The test's key set, as an identity provider publishes it: {@code GET /jwks.json} on loopback. */
    static HttpServer keySet(String json) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/jwks.json", exchange -> {
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    /**
     * A policy's {@code caller.roles} and {@code caller.claims} rules on the verified caller: Alice ({@code ops}) may run
     * {@code run_command} and Bob ({@code dev}) may not; Bob may {@code echo}, which needs the issuer's {@code iss} claim.
     */
    static void assertRolesAndClaimsDecide(ForkedJvm server, ForkedJvm asAlice, ForkedJvm asBob) throws IOException {
        assertThat(Callers.call(asAlice, "run_command", "{\"command\":\"uptime\"}")).as(server.dump()).isEqualTo(OK + "run_command done");
        assertThat(Callers.call(asBob, "run_command", "{\"command\":\"uptime\"}"))
                .startsWith("RESULT isError=true text=Policy denied tool 'run_command': ").endsWith("[rule /tools/run_command/require/0]");
        assertThat(Callers.call(asBob, "echo", "{\"text\":\"hi\"}")).isEqualTo(OK + "echo: hi");
    }

    /**
     * Alice's and Bob's bursts of {@code burst} {@code per_caller} calls in flight at once, against a limit of
     * {@code perUser} an hour per verified user: each gets exactly {@code perUser}, whatever the interleaving, every call
     * is answered once, and the server's decision lines name the user of each.
     */
    static void assertABudgetPerUser(ForkedJvm server, ForkedJvm asAlice, ForkedJvm asBob, int burst, int perUser) throws IOException {
        int aliceFrom = asAlice.stdout().size();
        int bobFrom = asBob.stdout().size();
        asAlice.send("burst " + burst + " " + burst + " per_caller {}");
        asBob.send("burst " + burst + " " + burst + " per_caller {}");
        for (ForkedJvm client : List.of(asAlice, asBob)) {
            String line = client.awaitStdout(client == asAlice ? aliceFrom : bobFrom, l -> l.startsWith(">> BURST ") || l.startsWith(">> ERROR"));
            assertThat(line).as(client.dump()).startsWith(">> BURST ");
            List<String> answers = Arrays.asList(line.substring(">> BURST ".length()).split("\t"));
            assertThat(answers).as("every call answered once").hasSize(burst);
            assertThat(answers).filteredOn(a -> a.equals(OK + "per_caller done")).as("%s", answers).hasSize(perUser);
            assertThat(answers).filteredOn(a -> !a.equals(OK + "per_caller done")).hasSize(burst - perUser)
                    .allMatch(a -> a.startsWith("RESULT isError=true text=Policy denied tool 'per_caller': ") && a.contains("retry after")
                            && a.endsWith("[rule /tools/per_caller/limits/0]"));
        }
        List<String> burstLines = server.awaitStderrCount(l -> l.contains(" tool=per_caller "), 2 * burst, Duration.ofSeconds(10));
        assertThat(burstLines).as(server.dump()).hasSize(2 * burst);
        for (String user : List.of("alice", "bob")) {
            assertThat(burstLines).filteredOn(l -> l.contains(" user=" + user + " ")).hasSize(burst)
                    .filteredOn(l -> l.contains("decision=ALLOW")).hasSize(perUser);
        }
        assertThat(server.stderr()).filteredOn(l -> l.startsWith("HANDLER RAN per_caller")).hasSize(2 * perUser);
    }

    /**
     * The request that opens an MCP session on {@code transport} (an {@code initialize} POST to {@code /mcp}, or the SSE
     * stream's GET of {@code <url>/sse}), sent with {@code Authorization: <authorization>} (none when empty): what the
     * app answers. {@code initializeId} is the POST's JSON-RPC id, as JSON.
     */
    static HttpResponse<String> openSession(String url, String transport, String authorization, String initializeId) throws Exception {
        HttpRequest.Builder request = "sse".equals(transport)
                ? HttpRequest.newBuilder(URI.create(url + "/sse")).header("Accept", "text/event-stream").GET()
                : HttpRequest.newBuilder(URI.create(url + "/mcp")).header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString(AbstractConcurrencyScenarios.INIT.formatted("2025-03-26")
                                .replace("\"id\":\"init\"", "\"id\":" + initializeId)));
        if (!authorization.isEmpty()) {
            request.header("Authorization", authorization);
        }
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        return http.send(request.timeout(ForkedJvm.TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Fixture clients, one per entry of {@code refused}, whose requests carry {@code Authorization: <entry>} (none when
     * empty), all started at once: the app refuses each, so each exits non-zero without ever being ready (its initialize
     * fails, or times out after 5 s).
     */
    static void assertNeverServed(List<ForkedJvm> jvms, Path root, String name, List<String> refused, String classPath, String transport,
            String url) throws Exception {
        List<ForkedJvm> strangers = new ArrayList<>();
        for (String authorization : refused) {
            String who = "stranger-" + jvms.size();
            List<String> options = new ArrayList<>(List.of("-Dfixture.timeout=5"));
            if (!authorization.isEmpty()) {
                options.add("-Dfixture.authorization=" + authorization);
            }
            ForkedJvm client = ForkedJvm.start(name + "-" + who, Files.createDirectories(root.resolve(who)), options, classPath,
                    "fixture.FixtureClient", List.of(transport, url));
            jvms.add(client);
            strangers.add(client);
        }
        for (ForkedJvm stranger : strangers) {
            assertThat(stranger.waitForExit()).as(stranger.dump()).isNotZero();
            assertThat(stranger.stdout()).as(stranger.dump()).doesNotContain(">> READY");
        }
    }

    /** No line of the server's output holds one of {@code tokens}, or its signature alone; no advice error either. */
    static void assertNoTokenLeaks(ForkedJvm server, String... tokens) {
        Predicate<String> leaks = l -> Arrays.stream(tokens)
                .anyMatch(token -> l.contains(token) || l.contains(token.substring(token.lastIndexOf('.') + 1)));
        assertThat(server.stderr()).as(server.dump()).noneMatch(leaks).noneMatch(l -> l.contains("advice error"));
        assertThat(server.stdout()).noneMatch(leaks);
    }
}
