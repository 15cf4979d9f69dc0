package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.callText;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code java -jar mcp-policy-agent.jar attach PID} (issue 15) on JVMs started without the agent: stdio
 * and HTTP servers of the oldest and newest SDK and an SDK client app serve calls, get the agent while
 * they run (the MCP classes already loaded are retransformed), and from the next call on are decided. A
 * second attach loads no second agent and switches the policy; each way an attach cannot work is one
 * line and its exit code.
 */
class AttachIT {
    private static final String DENIES_ECHO = """
            { "version": "1", "default": "allow", "tools": { "echo": { "action": "deny", "reason": "echo is off after the switch" } } }
            """;
    private static final Predicate<String> AGENT_ERRORS = line -> line.contains("advice error") || line.contains("retransforming")
            || line.contains("NOT instrumented") || line.contains("ERROR");

    /** What one run of the command printed, and its exit code. */
    record Run(int exit, List<String> out, List<String> err) {
        String all() {
            return "exit " + exit + "\n---- stdout\n" + String.join("\n", out) + "\n---- stderr\n" + String.join("\n", err);
        }

        void hasNoStackTrace() {
            assertThat(err).as(all()).noneMatch(line -> line.startsWith("\tat ") || line.contains("Exception in thread"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.10.0", "2.1.0"})
    void aStdioServerStartedWithoutTheAgentIsDecidedFromTheNextCallOnAndASecondAttachSwitchesItsPolicy(String sdk) throws Exception {
        Path dir = Fixtures.workDir("AttachIT-stdio-" + sdk);
        Files.writeString(dir.resolve("mcp-policy.json"), Policies.SERVER);
        try (ForkedJvm server = ForkedJvm.start("AttachIT-stdio-" + sdk, dir, List.of(), Fixtures.classPath(sdk), "fixture.FixtureServer",
                List.of("stdio"))) {
            initialize(server);
            assertThat(callText(server, "before", "delete_everything", "{}")).as("no agent yet").isEqualTo("delete_everything done");
            assertThat(handlerRuns(server, "delete_everything")).isEqualTo(1);

            Path policy = dir.resolve("mcp-policy.json").toRealPath();
            Run attached = attach(dir, List.of(), String.valueOf(server.pid()));
            assertThat(attached.exit()).as(attached.all()).isZero();
            assertThat(attached.out()).as(attached.all())
                    .anyMatch(line -> line.startsWith("attached mcp-policy-agent ") && line.contains(" to " + server.pid()))
                    .anyMatch(line -> line.startsWith("instrumented io.modelcontextprotocol.server.McpAsyncServer (mcp"))
                    .contains("canary: the hooks fire")
                    .anyMatch(line -> line.startsWith("policy: " + policy + " sha256="));
            if (sdk.equals("0.10.0")) {
                // the serialized stdio sends: a weave of the session transport the running server already has
                assertThat(attached.out()).as(attached.all()).anyMatch(line -> line.startsWith(
                        "instrumented io.modelcontextprotocol.server.transport.StdioServerTransportProvider$StdioMcpSessionTransport"));
            }
            server.awaitStderr(line -> line.startsWith("[mcp-policy] mcp-policy-agent ") && line.endsWith("(attached to a running JVM)"));
            server.awaitStderr(line -> line.equals("[mcp-policy] canary: the hooks fire (a woven tools/call handler reached the policy)"));

            assertThat(callText(server, "after", "delete_everything", "{}"))
                    .isEqualTo("Policy denied tool 'delete_everything': destructive tools are disabled [rule /tools/delete_everything]");
            server.awaitStderr(line -> line.contains("decision=DENY tool=delete_everything side=server"));
            assertThat(handlerRuns(server, "delete_everything")).as("the denied handler did not run").isEqualTo(1);
            assertThat(callText(server, "allowed", "echo", "{\"text\":\"hi\"}")).isEqualTo("echo: hi");

            Path switched = Files.writeString(dir.resolve("switched.json"), DENIES_ECHO).toRealPath();
            Run again = attach(dir, List.of(), String.valueOf(server.pid()), "--policy", switched.toString());
            assertThat(again.exit()).as(again.all()).isZero();
            assertThat(again.out()).as(again.all())
                    .anyMatch(line -> line.startsWith("already attached: " + server.pid()) && line.endsWith("no second agent was loaded"))
                    .anyMatch(line -> line.startsWith("policy switched to " + switched + " sha256="));
            server.awaitStderr(line -> line.startsWith("[mcp-policy] policy reloaded: " + switched));
            assertThat(callText(server, "switched", "echo", "{\"text\":\"hi\"}"))
                    .isEqualTo("Policy denied tool 'echo': echo is off after the switch [rule /tools/echo]");
            assertThat(callText(server, "now-allowed", "delete_everything", "{}")).as("the new policy's default: allow")
                    .isEqualTo("delete_everything done");

            // policy= as an agent option is not checked by the command: the running agent refuses the switch itself
            Path invalid = Files.writeString(dir.resolve("invalid.json"), Policies.INVALID).toRealPath();
            Run refused = attach(dir, List.of(), String.valueOf(server.pid()), "policy=" + invalid);
            assertThat(refused.exit()).as(refused.all()).isEqualTo(1);
            assertThat(refused.err()).as(refused.all()).anyMatch(line -> line.startsWith("attach: the policy was NOT switched: ")
                    && line.contains("unknown key 'defualt'") && line.endsWith("; the policy in force stays"));
            server.awaitStderr(line -> line.startsWith("[mcp-policy] ERROR policy reload rejected: " + invalid));
            assertThat(callText(server, "kept", "echo", "{\"text\":\"hi\"}"))
                    .isEqualTo("Policy denied tool 'echo': echo is off after the switch [rule /tools/echo]");

            Run third = attach(dir, List.of(), String.valueOf(server.pid()));
            assertThat(third.exit()).as(third.all()).isZero();
            assertThat(third.out()).as(third.all()).anyMatch(line -> line.startsWith("already attached: "))
                    .anyMatch(line -> line.startsWith("policy: " + switched));
            assertThat(server.stderr()).filteredOn(line -> line.startsWith("[mcp-policy] mcp-policy-agent ")).as("one agent").hasSize(1);
            assertThat(server.stderr()).filteredOn(line -> !line.contains("policy reload rejected: " + invalid)
                    && !line.contains("unknown key 'defualt'")).noneMatch(AGENT_ERRORS);
        }
    }

    @ParameterizedTest
    @CsvSource({"0.10.0, sse", "2.1.0, streamable"})
    void anHttpServerAndAnSdkClientAppAreAttachedWhileTheyServe(String sdk, String transport) throws Exception {
        String name = "AttachIT-http-" + sdk;
        Path root = Fixtures.workDir(name);
        Path serverDir = Files.createDirectories(root.resolve("server"));
        Path clientDir = Files.createDirectories(root.resolve("client"));
        Files.writeString(serverDir.resolve("mcp-policy.json"), Policies.SERVER);
        Files.writeString(clientDir.resolve("mcp-policy.json"), Policies.CLIENT);
        try (ForkedJvm server = ForkedJvm.startProcess(name + "-server", serverDir, List.of(ForkedJvm.javaExecutable(), "-cp",
                Fixtures.classPath(sdk), "fixture.FixtureServer", transport))) {
            String listening = server.awaitStderr(line -> line.startsWith("FIXTURE LISTENING "));
            String url = "http://localhost:" + listening.substring("FIXTURE LISTENING ".length()).trim();
            try (ForkedJvm client = ForkedJvm.start(name + "-client", clientDir, List.of(), Fixtures.classPath(sdk), "fixture.FixtureClient",
                    List.of(transport, url))) {
                client.awaitStdout(0, line -> line.equals(">> READY"));
                assertThat(Callers.command(client, "call delete_everything {}")).isEqualTo("RESULT isError=false text=delete_everything done");
                assertThat(Callers.command(client, "call wire_money {}")).isEqualTo("RESULT isError=false text=wire_money done");

                Run serverAttach = attach(serverDir, List.of(), String.valueOf(server.pid()));
                assertThat(serverAttach.exit()).as(serverAttach.all()).isZero();
                assertThat(serverAttach.out()).as(serverAttach.all()).contains("canary: the hooks fire")
                        .anyMatch(line -> line.startsWith("instrumented io.modelcontextprotocol.server.McpAsyncServer "));
                if (sdk.equals("2.1.0")) {
                    // the caller identity weave of the servlet transport serving the session already open
                    assertThat(serverAttach.out()).as(serverAttach.all()).anyMatch(line -> line.startsWith(
                            "instrumented io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider "));
                }
                assertThat(Callers.command(client, "call delete_everything {}")).as("the session open before the attach is decided")
                        .isEqualTo("RESULT isError=true text=Policy denied tool 'delete_everything': destructive tools are disabled"
                                + " [rule /tools/delete_everything]");
                server.awaitStderr(line -> line.contains("decision=DENY tool=delete_everything side=server"));
                assertThat(handlerRuns(server, "delete_everything")).isEqualTo(1);

                Run clientAttach = attach(clientDir, List.of(), String.valueOf(client.pid()));
                assertThat(clientAttach.exit()).as(clientAttach.all()).isZero();
                assertThat(clientAttach.out()).as(clientAttach.all()).contains("canary: the hooks fire")
                        .anyMatch(line -> line.startsWith("instrumented io.modelcontextprotocol.client.McpAsyncClient "));
                assertThat(Callers.command(client, "call wire_money {}")).as("the client decides before it sends")
                        .isEqualTo("RESULT isError=true text=Policy denied tool 'wire_money': payments need a human"
                                + " [rule /servers/fixture-server/tools/wire_money]");
                client.awaitStderr(line -> line.contains("decision=DENY tool=wire_money side=client"));
                assertThat(Callers.command(client, "call echo {\"text\":\"still\"}")).isEqualTo("RESULT isError=false text=echo: still");
                assertThat(handlerRuns(server, "wire_money")).as("the call denied by the client never reached the server").isEqualTo(1);

                assertThat(server.stderr()).noneMatch(AGENT_ERRORS);
                assertThat(client.stderr()).noneMatch(AGENT_ERRORS);
            }
        }
    }

    @Test
    void eachWayItCannotAttachIsOneLineAndItsExitCode() throws Exception {
        Path dir = Fixtures.workDir("AttachIT-errors");
        Files.writeString(dir.resolve("invalid.json"), Policies.INVALID);

        Run notAPid = attach(dir, List.of(), "twelve");
        assertThat(notAPid.exit()).as(notAPid.all()).isEqualTo(2);
        assertThat(notAPid.err()).contains("attach: not a process id: twelve");

        Process ended = new ProcessBuilder("true").start();
        ended.waitFor(30, TimeUnit.SECONDS);
        Run gone = attach(dir, List.of(), String.valueOf(ended.pid()));
        assertThat(gone.exit()).as(gone.all()).isEqualTo(3);
        assertThat(gone.err()).contains("attach: no process " + ended.pid());
        gone.hasNoStackTrace();

        Run invalid = attach(dir, List.of(), String.valueOf(ProcessHandle.current().pid()), "--policy", "invalid.json");
        assertThat(invalid.exit()).as(invalid.all()).isEqualTo(2);
        assertThat(invalid.err()).as(invalid.all()).anyMatch(line -> line.contains("unknown key 'defualt'"))
                .anyMatch(line -> line.startsWith("attach: nothing was attached"));

        Process sleep = new ProcessBuilder("sleep", "120").start();
        try {
            Run notJvm = attach(dir, List.of(), String.valueOf(sleep.pid()));
            assertThat(notJvm.exit()).as(notJvm.all()).isEqualTo(4);
            assertThat(notJvm.err()).anyMatch(line -> line.startsWith("attach: " + sleep.pid() + " (") && line.endsWith(
                    "is not a Java virtual machine (no libjvm.so in it)"));
            assertThat(sleep.isAlive()).as("it was sent no attach signal").isTrue();
            notJvm.hasNoStackTrace();
        } finally {
            sleep.destroy();
        }

        try (ForkedJvm closed = ForkedJvm.start("AttachIT-disabled", dir, List.of("-XX:+DisableAttachMechanism"),
                Fixtures.classPath("2.1.0"), "fixture.FixtureServer", List.of("stdio"))) {
            closed.awaitStderr(line -> line.equals("FIXTURE SERVER UP stdio"));
            Run disabled = attach(dir, List.of(), String.valueOf(closed.pid()));
            assertThat(disabled.exit()).as(disabled.all()).isEqualTo(6);
            assertThat(disabled.err()).anyMatch(line -> line.contains("it was started with -XX:+DisableAttachMechanism"));
            disabled.hasNoStackTrace();
            assertThat(closed.isAlive()).isTrue();
            assertThat(closed.stdout()).as("nothing (a thread dump, say) got into the stdio stream").isEmpty();

            // another user's JVM: the command as nobody, the JVM as this (root) user
            boolean root = "root".equals(System.getProperty("user.name"));
            boolean setpriv = Files.isExecutable(Path.of("/usr/bin/setpriv"));
            if (root && setpriv) {
                Run other = attach(dir, List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"),
                        String.valueOf(closed.pid()));
                assertThat(other.exit()).as(other.all()).isEqualTo(5);
                assertThat(other.err()).as(other.all()).anyMatch(line -> line.contains("belongs to another user (uid 0;")
                        && line.endsWith("run the command as that user"));
                other.hasNoStackTrace();
            }
        }

        try (ForkedJvm refusing = ForkedJvm.start("AttachIT-no-agents", dir, List.of("-XX:-EnableDynamicAgentLoading"),
                Fixtures.classPath("2.1.0"), "fixture.FixtureServer", List.of("stdio"))) {
            refusing.awaitStderr(line -> line.equals("FIXTURE SERVER UP stdio"));
            Run noAgents = attach(dir, List.of(), String.valueOf(refusing.pid()));
            assertThat(noAgents.exit()).as(noAgents.all()).isEqualTo(6);
            assertThat(noAgents.err()).anyMatch(line -> line.contains("it was started with -XX:-EnableDynamicAgentLoading"));
            noAgents.hasNoStackTrace();
            assertThat(refusing.stderr()).noneMatch(line -> line.startsWith("[mcp-policy]"));
        }

        Path jre = jreWithoutAttach();
        Run noModule = attachWith(dir, List.of(), List.of(jre.resolve("bin/java").toString(), String.valueOf(ProcessHandle.current().pid())));
        assertThat(noModule.exit()).as(noModule.all()).isEqualTo(7);
        assertThat(noModule.err()).anyMatch(line -> line.contains("has no jdk.attach module"));
        noModule.hasNoStackTrace();
    }

    /** A Java runtime without the jdk.attach module, linked once per build from the one the apps run on. */
    private static Path jreWithoutAttach() throws Exception {
        Path jdk = Path.of(ForkedJvm.javaExecutable()).getParent().getParent();
        Path jre = Fixtures.workPath("AttachIT-jre-" + jdk.getFileName());
        if (Files.isExecutable(jre.resolve("bin/java"))) {
            return jre;
        }
        Path jlink = jdk.resolve("bin/jlink");
        assumeTrue(Files.isExecutable(jlink), "no jlink next to " + ForkedJvm.javaExecutable());
        Files.createDirectories(jre.getParent());
        Process link = new ProcessBuilder(jlink.toString(), "--add-modules", "java.base,java.instrument,java.management,java.logging",
                "--output", jre.toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(link.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(link.exitValue()).isZero();
        return jre;
    }

    /** {@code java -jar mcp-policy-agent.jar attach ARGS}, with the apps' Java, run to its end. */
    private static Run attach(Path dir, List<String> prefix, String... args) throws Exception {
        List<String> withJava = new ArrayList<>(List.of(ForkedJvm.javaExecutable()));
        withJava.addAll(List.of(args));
        return attachWith(dir, prefix, withJava);
    }

    /** As above; {@code javaAndArgs} starts with the java to run the command with. */
    private static Run attachWith(Path dir, List<String> prefix, List<String> javaAndArgs) throws Exception {
        List<String> command = new ArrayList<>(prefix);
        command.add(javaAndArgs.get(0));
        command.addAll(List.of("-jar", Fixtures.agentJar().toString(), "attach"));
        command.addAll(javaAndArgs.subList(1, javaAndArgs.size()));
        File out = Files.createTempFile(dir, "attach", ".out").toFile();
        File err = Files.createTempFile(dir, "attach", ".err").toFile();
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(out).redirectError(err).start();
        if (!process.waitFor(ForkedJvm.TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("attach did not end: " + command);
        }
        return new Run(process.exitValue(), Files.readAllLines(out.toPath()), Files.readAllLines(err.toPath()));
    }


    private static long handlerRuns(ForkedJvm jvm, String tool) {
        return jvm.stderr().stream().filter(line -> line.startsWith("HANDLER RAN " + tool + " ")).count();
    }
}
