package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code scope: client} over HTTP counts per caller credential: the fixture server's app sets no
 * transport-context extractor, so the identity comes from the agent's hook on the SDK's servlet
 * transport, which hashes the {@code Authorization} header. Every client calls itself
 * {@code fixture-client}, so a limit keyed by {@code clientInfo.name} would be shared by all of them.
 */
class CallerIdentityIT {
    private static final String POLICY = """
            {
              "version": "1",
              "default": "deny",
              "tools": {
                "echo": {},
                "limited": { "limits": [ { "counter": "per-caller", "window": "hour", "max": 2, "scope": "client" } ] }
              }
            }
            """;
    private static final String OK = "RESULT isError=false text=limited done";

    @ParameterizedTest(name = "SDK {0} {1}")
    @CsvSource({"0.14.0, streamable", "2.1.0, streamable", "2.1.0, sse", "2.1.0, stateless", "2.2.0, modern-http"})
    void clientScopedLimitsCountPerHashedAuthorizationHeader(String sdk, String transport) throws Exception {
        String name = "identity-" + sdk + "-" + transport;
        Path root = Fixtures.workDir(name);
        Path serverDir = Files.createDirectories(root.resolve("server"));
        Files.writeString(serverDir.resolve("mcp-policy.json"), POLICY);
        String classPath = Fixtures.classPath(sdk);
        // modern-http: the SDK 2.2 modern API's apps over its HTTP transport (protocol 2026-07-28)
        boolean modern = transport.startsWith("modern-");
        String wire = modern ? transport.substring("modern-".length()) : transport;
        String client = modern ? "fixture.ModernClient" : "fixture.FixtureClient";
        List<ForkedJvm> jvms = new ArrayList<>();
        try {
            ForkedJvm server = ForkedJvm.start(name + "-server", serverDir, List.of(Fixtures.javaagent("")), classPath,
                    modern ? "fixture.ModernServer" : "fixture.FixtureServer", List.of(wire));
            jvms.add(server);
            String url = "http://localhost:" + server.awaitStderr(l -> l.startsWith("FIXTURE LISTENING ")).substring(18).trim();
            ForkedJvm alice = Callers.start(jvms, root.resolve(name + "-alice"), name + "-alice", "Bearer alice-secret",
                    classPath, client, wire, url);
            ForkedJvm bob = Callers.start(jvms, root.resolve(name + "-bob"), name + "-bob", "Bearer bob-secret", classPath,
                    client, wire, url);

            assertThat(Callers.call(alice, "limited")).isEqualTo(OK);
            assertThat(Callers.call(alice, "limited")).isEqualTo(OK);
            assertThat(Callers.call(alice, "limited")).startsWith("RESULT isError=true text=Policy denied tool 'limited': ")
                    .contains("retry after").endsWith("[rule /tools/limited/limits/0]");
            // another caller has a budget of its own
            assertThat(Callers.call(bob, "limited")).isEqualTo(OK);
            assertThat(Callers.call(bob, "limited")).isEqualTo(OK);
            // the same credential on a new connection (a new session, where the transport has sessions) shares alice's budget
            ForkedJvm aliceAgain = Callers.start(jvms, root.resolve(name + "-alice-again"), name + "-alice-again",
                    "Bearer alice-secret", classPath, client, wire, url);
            assertThat(Callers.call(aliceAgain, "limited")).startsWith("RESULT isError=true");

            String alicePrincipal = Callers.principalField("Bearer alice-secret");
            String bobPrincipal = Callers.principalField("Bearer bob-secret");
            server.awaitStderr(l -> l.contains("decision=DENY tool=limited") && l.contains(alicePrincipal) && l.contains("retry_after="));
            server.awaitStderr(l -> l.contains("decision=ALLOW tool=limited") && l.contains(bobPrincipal));
            List<String> log = server.stderr();
            assertThat(log).as(server.dump())
                    .anyMatch(l -> l.matches("\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.(modern\\.)?server\\.transport\\.HttpServlet.*")
                            && l.endsWith(": transport context"))
                    .filteredOn(l -> l.contains("decision=") && l.contains("tool=limited")).hasSize(6)
                    .allMatch(l -> l.contains(alicePrincipal) || l.contains(bobPrincipal));
            assertThat(log).noneMatch(l -> l.contains("alice-secret") || l.contains("bob-secret")).noneMatch(l -> l.contains("advice error"));
        } finally {
            for (ForkedJvm jvm : jvms) {
                jvm.close();
            }
        }
    }
}
