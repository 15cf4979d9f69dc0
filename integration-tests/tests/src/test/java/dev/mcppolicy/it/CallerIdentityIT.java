package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
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
    @CsvSource({"0.14.0, streamable", "2.1.0, streamable", "2.1.0, sse", "2.1.0, stateless"})
    void clientScopedLimitsCountPerHashedAuthorizationHeader(String sdk, String transport) throws Exception {
        String name = "identity-" + sdk + "-" + transport;
        Path root = Fixtures.workDir(name);
        Path serverDir = Files.createDirectories(root.resolve("server"));
        Files.writeString(serverDir.resolve("mcp-policy.json"), POLICY);
        String classPath = Fixtures.classPath(sdk);
        List<ForkedJvm> jvms = new ArrayList<>();
        try {
            ForkedJvm server = ForkedJvm.start(name + "-server", serverDir, List.of(Fixtures.javaagent("")), classPath,
                    "fixture.FixtureServer", List.of(transport));
            jvms.add(server);
            String url = "http://localhost:" + server.awaitStderr(l -> l.startsWith("FIXTURE LISTENING ")).substring(18).trim();
            ForkedJvm alice = client(jvms, root, name + "-alice", "Bearer alice-secret", classPath, transport, url);
            ForkedJvm bob = client(jvms, root, name + "-bob", "Bearer bob-secret", classPath, transport, url);

            assertThat(call(alice, "limited")).isEqualTo(OK);
            assertThat(call(alice, "limited")).isEqualTo(OK);
            assertThat(call(alice, "limited")).startsWith("RESULT isError=true text=Policy denied tool 'limited': ")
                    .contains("retry after").endsWith("[rule /tools/limited/limits/0]");
            // another caller has a budget of its own
            assertThat(call(bob, "limited")).isEqualTo(OK);
            assertThat(call(bob, "limited")).isEqualTo(OK);
            // the same credential on a new connection (a new session) shares alice's budget
            ForkedJvm aliceAgain = client(jvms, root, name + "-alice-again", "Bearer alice-secret", classPath, transport, url);
            assertThat(call(aliceAgain, "limited")).startsWith("RESULT isError=true");

            String alicePrincipal = "client=principal:" + sha256("Bearer alice-secret").substring(0, 16);
            String bobPrincipal = "client=principal:" + sha256("Bearer bob-secret").substring(0, 16);
            server.awaitStderr(l -> l.contains("decision=DENY tool=limited") && l.contains(alicePrincipal) && l.contains("retry_after="));
            server.awaitStderr(l -> l.contains("decision=ALLOW tool=limited") && l.contains(bobPrincipal));
            List<String> log = server.stderr();
            assertThat(log).as(server.dump())
                    .anyMatch(l -> l.startsWith("[mcp-policy] instrumented io.modelcontextprotocol.server.transport.HttpServlet")
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

    private static ForkedJvm client(List<ForkedJvm> jvms, Path root, String name, String authorization, String classPath,
            String transport, String url) throws IOException {
        Path dir = Files.createDirectories(root.resolve(name));
        ForkedJvm client = ForkedJvm.start(name, dir, List.of("-Dfixture.authorization=" + authorization), classPath,
                "fixture.FixtureClient", List.of(transport, url));
        jvms.add(client);
        client.awaitStdout(0, line -> line.equals(">> READY"));
        return client;
    }

    private static String call(ForkedJvm client, String tool) throws IOException {
        int from = client.stdout().size();
        client.send("call " + tool + " {}");
        return client.awaitStdout(from, line -> line.startsWith(">> ") && !line.equals(">> READY")).substring(3);
    }

    private static String sha256(String text) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
