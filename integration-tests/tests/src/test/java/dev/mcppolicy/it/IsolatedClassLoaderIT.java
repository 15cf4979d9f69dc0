package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SDK in a class loader that does not delegate to the system class loader (an app server's, a
 * plugin host's): woven code must still reach the agent, which it does through JDK-only dynamic
 * constants, with nothing on the boot class path. Server and client each run their fixture inside
 * {@code fixture.Isolated}.
 */
class IsolatedClassLoaderIT {
    private static final String SDK = "2.1.0";

    @Test
    void hooksWorkWhenTheSdkIsInAnIsolatedClassLoader() throws Exception {
        Path root = Fixtures.workDir("isolated-loader");
        Path serverDir = Files.createDirectories(root.resolve("server"));
        Path clientDir = Files.createDirectories(root.resolve("client"));
        Files.writeString(serverDir.resolve("mcp-policy.json"), Policies.SERVER);
        Files.writeString(clientDir.resolve("mcp-policy.json"), Policies.CLIENT);
        List<String> isolated = List.of(Fixtures.javaagent(""), "-Dfixture.isolated.classpath=" + Fixtures.classPath(SDK));
        String launcherOnly = Fixtures.classesOnly(SDK);
        List<ForkedJvm> jvms = new ArrayList<>();
        try {
            ForkedJvm server = ForkedJvm.start("isolated-server", serverDir, isolated, launcherOnly, "fixture.Isolated",
                    List.of("fixture.FixtureServer", "streamable"));
            jvms.add(server);
            String url = "http://localhost:" + server.awaitStderr(l -> l.startsWith("FIXTURE LISTENING ")).substring(18).trim();
            ForkedJvm client = ForkedJvm.start("isolated-client", clientDir, isolated, launcherOnly, "fixture.Isolated",
                    List.of("fixture.FixtureClient", "streamable", url));
            jvms.add(client);
            client.awaitStdout(0, line -> line.equals(">> READY"));

            assertThat(Callers.command(client, "list")).doesNotContain("secret_tool").doesNotContain("client_hidden").contains("echo");
            assertThat(Callers.command(client, "call echo {\"text\":\"hi\"}")).isEqualTo("RESULT isError=false text=echo: hi");
            assertThat(Callers.command(client, "call unlisted_tool {}")).startsWith("RESULT isError=true text=Policy denied tool 'unlisted_tool': ")
                    .endsWith("[rule (default)]");
            assertThat(Callers.command(client, "call wire_money {\"amount\":1}")).isEqualTo(
                    "RESULT isError=true text=Policy denied tool 'wire_money': payments need a human [rule /servers/fixture-server/tools/wire_money]");

            server.awaitStderr(l -> l.contains("decision=DENY tool=unlisted_tool side=server"));
            client.awaitStderr(l -> l.contains("decision=DENY tool=wire_money side=client"));
            for (ForkedJvm jvm : jvms) {
                assertThat(jvm.stderr()).as(jvm.dump())
                        .anyMatch(l -> l.startsWith("ISOLATED fixture.Fixture"))
                        .anyMatch(l -> l.startsWith("[mcp-policy] instrumented io.modelcontextprotocol."))
                        .noneMatch(l -> l.contains("advice error") || l.contains("NOT instrumented") || l.contains("Sharing is only supported"));
            }
            assertThat(server.stderr()).noneMatch(l -> l.startsWith("HANDLER RAN unlisted_tool") || l.contains("wire_money"));
        } finally {
            for (ForkedJvm jvm : jvms) {
                jvm.close();
            }
        }
    }

}
