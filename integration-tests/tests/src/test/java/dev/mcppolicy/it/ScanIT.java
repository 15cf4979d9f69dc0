package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.answer;
import static dev.mcppolicy.it.StdioRpc.call;
import static dev.mcppolicy.it.StdioRpc.callText;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code java -jar mcp-policy-agent.jar scan} (SPEC §9, issue 15) against real servers: the demo sandbox
 * server, the npm {@code server-everything} and an SDK 2.1.0 fixture whose tools carry annotations, over
 * stdio and streamable HTTP. The written policy passes {@code check}, has the expected categories and, run
 * under the agent, decides as they say. A server that never answers, one that exits at once and one that
 * writes what is not JSON-RPC each give one clear error line and leave no process behind.
 */
class ScanIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** What the annotated fixture's tools must come out as: the hints decide, except where the name outweighs them. */
    private static final Map<String, String> FIXTURE_CATEGORIES = categories(
            "echo", "read", "secret_tool", "read", "unlisted_tool", "read", "client_hidden", "read",
            "audit_me", "write", "run_command", "execute", "exec", "execute",
            "delete_everything", "destructive", "limited", "destructive", "wire_money", "financial", "transfer", "financial");

    @Test
    void scansTheDemoSandboxServer() throws Exception {
        Path dir = Fixtures.workDir("ScanIT-demo");
        Result scan = scan(dir, "-o", "demo.json", "--", ForkedJvm.javaExecutable(), "-jar", Fixtures.demoJar().toString());
        assertThat(scan.exit()).as(scan.toString()).isZero();
        assertThat(scan.stderr()).contains("scan: sandbox-server 0.1.0 (protocol 2025-06-18) lists 8 tools");
        assertChecks(dir, "demo.json");
        JsonNode tools = JSON.readTree(dir.resolve("demo.json").toFile()).path("tools");
        assertThat(categoriesOf(tools)).isEqualTo(categories(
                "run_command", "execute", "sandbox_exec_background", "execute", "sandbox_exec_status", "execute",
                "sandbox_exec_list", "execute", "sandbox_exec_kill", "destructive", "read_file", "read",
                "write_file", "destructive", "delete_file", "destructive"));
        assertThat(tools.path("run_command").path("arguments").asText()).isEqualTo("input_schema");
        assertThat(tools.path("run_command").path("limits").path(0).path("max").asInt()).isEqualTo(10);
        assertThat(tools.path("delete_file").path("action").asText()).isEqualTo("require_approval");
        assertThat(tools.path("read_file").path("action").isMissingNode()).as("allowed: no action").isTrue();
    }

    @Test
    void scansServerEverythingFromNpm() throws Exception {
        Path everything = TypeScriptPeers.dir().resolve("node_modules/.bin/mcp-server-everything");
        assertThat(everything).as("server-everything in the peers directory; install the peers first: bash .ci/install-peers.sh").exists();
        Path dir = Fixtures.workDir("ScanIT-everything");
        Result scan = scan(dir, "-o", "everything.yaml", "--", everything.toString(), "stdio");
        assertThat(scan.exit()).as(scan.toString()).isZero();
        assertChecks(dir, "everything.yaml");
        JsonNode tools = YAML.readTree(dir.resolve("everything.yaml").toFile()).path("tools");
        Map<String, String> categories = categoriesOf(tools);
        assertThat(categories).hasSize(13).containsEntry("echo", "read").containsEntry("get-sum", "read")
                .containsEntry("toggle-simulated-logging", "write").containsEntry("gzip-file-as-resource", "write");
        assertThat(tools.path("toggle-simulated-logging").path("limits").path(0).path("max").asInt()).isEqualTo(60);
        assertThat(Files.readString(dir.resolve("everything.yaml"))).startsWith("# Starter policy for mcp-servers/everything")
                .contains("  # write\n  toggle-simulated-logging:\n");
    }

    @Test
    void theWrittenPolicyOfAnAnnotatedServerDecidesAsItsCategoriesSay() throws Exception {
        Path dir = Fixtures.workDir("ScanIT-annotated");
        Result scan = scan(dir, "-o", "mcp-policy.yaml", "--", ForkedJvm.javaExecutable(), "-Dfixture.annotated=true",
                "-cp", Fixtures.classPath("2.1.0"), "fixture.FixtureServer", "stdio");
        assertThat(scan.exit()).as(scan.toString()).isZero();
        assertChecks(dir, "mcp-policy.yaml");
        JsonNode tools = YAML.readTree(dir.resolve("mcp-policy.yaml").toFile()).path("tools");
        assertThat(categoriesOf(tools)).isEqualTo(FIXTURE_CATEGORIES);
        assertThat(tools.path("delete_everything").path("reason").asText()).isEqualTo("destructive: annotations say readOnlyHint=true,"
                + " but the name has 'delete', and a server's hint does not lower the risk its name shows; each call waits for a"
                + " human's approval on the admin endpoint, denied after 5m (at once when the agent has no admin endpoint)");

        Path home = Files.createDirectories(dir.resolve("home"));
        try (ForkedJvm server = StdioRpc.start("ScanIT-annotated-server", "2.1.0", dir, List.of("-Dfixture.annotated=true",
                "-Duser.home=" + home), "policy=mcp-policy.yaml,admin=127.0.0.1:0")) {
            initialize(server);
            assertThat(callText(server, "read", "echo", "{\"text\":\"hi\"}")).isEqualTo("echo: hi");
            assertThat(callText(server, "write", "audit_me", "{}")).isEqualTo("audit_me done");
            assertThat(callText(server, "bad", "exec", "{\"command\":42}")).startsWith("Policy denied tool 'exec': ")
                    .endsWith("[rule /tools/exec/arguments]");
            for (int i = 1; i <= 10; i++) {
                assertThat(callText(server, "exec" + i, "exec", "{\"command\":\"ls\"}")).isEqualTo("exec would run: ls");
            }
            assertThat(callText(server, "exec11", "exec", "{\"command\":\"ls\"}")).startsWith("Policy denied tool 'exec': rate limit exceeded")
                    .contains("[rule /tools/exec/limits/0]");
            server.send(call("held", "delete_everything", "{}"));
            server.send(call("held2", "limited", "{}"));
            server.awaitStderr(line -> line.contains("decision=HOLD tool=delete_everything"));
            server.awaitStderr(line -> line.contains("decision=HOLD tool=limited"));
            assertThat(callText(server, "after", "echo", "{\"text\":\"still\"}")).isEqualTo("echo: still");
            assertThat(server.stdout()).noneMatch(line -> line.contains("\"id\":\"held\"") || line.contains("\"id\":\"held2\""));
            assertThat(server.stderr()).noneMatch(line -> line.contains("HANDLER RAN delete_everything") || line.contains("HANDLER RAN limited"))
                    .filteredOn(line -> line.contains("HANDLER RAN exec")).hasSize(10);
            assertThat(server.stderr()).noneMatch(line -> line.contains("advice error"));
            assertThat(answer(server, "after")).isNotNull();
        }
    }

    /**
     * SPEC §14: {@code scan --pins} hashes the definitions from the wire's JSON, the agent from the SDK's records; the same
     * digits, so a client whose policy names the file lists every tool, and after the server's rug pull hides and denies
     * the changed one ({@code rule /pins}) and the new one.
     */
    @Test
    void thePinsScanWritesAreThePinsTheAgentHoldsTheServerTo() throws Exception {
        Path dir = Fixtures.workDir("ScanIT-pins");
        List<String> server = List.of("-Dfixture.catalog=true", "-Dfixture.rugpull=true", "-cp", Fixtures.classPath("2.1.0"),
                "fixture.FixtureServer", "stdio");
        List<String> command = new ArrayList<>(List.of("scan", "-o", "starter.json", "--pins", "mcp-pins.json", "--",
                ForkedJvm.javaExecutable()));
        command.addAll(server);
        Result scan = run(dir, command);
        assertThat(scan.exit()).as(scan.toString()).isZero();
        assertThat(scan.stderr()).anyMatch(line -> line.startsWith("scan: pinned ") && line.contains("of server 'fixture-server' in mcp-pins.json"));
        JsonNode pins = JSON.readTree(dir.resolve("mcp-pins.json").toFile());
        assertThat(pins.path("servers").path("fixture-server").path("tools").path("cat").asText()).matches("[0-9a-f]{64}");
        // scanned again: the same pins, and it says nothing changed
        Result again = run(dir, command);
        assertThat(again.stderr()).anyMatch(line -> line.contains("since the pins it replaced: 0 changed, 0 new, 0 gone"));

        String policy = "{\"version\": \"1\", \"default\": \"allow\", \"pins\": \""
                + dir.resolve("mcp-pins.json").toString().replace("\\", "\\\\") + "\"}";
        try (McpPair pair = McpPair.start("ScanIT-pinned", "2.1.0", "stdio", false, "{\"version\": \"1\", \"default\": \"allow\"}",
                policy, "", "", List.of("-Dfixture.catalog=true", "-Dfixture.rugpull=true"), Fixtures.classPath("2.1.0"))) {
            assertThat(pair.list()).as(pair.dump()).contains("cat", "rug_pull", "echo");
            assertThat(pair.clientLog()).noneMatch(line -> line.contains("pin: "));
            assertThat(pair.call("rug_pull", "{}")).isEqualTo("RESULT isError=false text=pulled");
            pair.awaitClientLog(line -> line.startsWith("TOOLS CHANGED ") && line.contains("rug_pull"));
            assertThat(pair.call("cat", "{\"path\":\"file:///public/readme.txt\"}"))
                    .isEqualTo("RESULT isError=true text=Policy denied tool 'cat': tool definition changed since it was pinned [rule /pins]");
            assertThat(pair.call("exfiltrate", "{}")).startsWith("RESULT isError=true text=Policy denied tool 'exfiltrate': ");
            assertThat(pair.clientLog()).anyMatch(line -> line.contains("pin: tool definition changed since it was pinned: tool 'cat'")
                    && line.contains("(pinned in " + dir.resolve("mcp-pins.json")));
        }
    }

    @Test
    void scansAStreamableHttpServer() throws Exception {
        Path dir = Fixtures.workDir("ScanIT-http");
        try (ForkedJvm server = ForkedJvm.start("ScanIT-http-server", dir, List.of("-Dfixture.annotated=true"),
                Fixtures.classPath("2.1.0"), "fixture.FixtureServer", List.of("streamable"))) {
            Matcher listening = Pattern.compile("FIXTURE LISTENING (\\d+)").matcher(server.awaitStderr(line -> line.startsWith("FIXTURE LISTENING ")));
            assertThat(listening.find()).isTrue();
            Result scan = scan(dir, "-o", "http.json", "--url", "http://127.0.0.1:" + listening.group(1) + "/mcp");
            assertThat(scan.exit()).as(scan.toString()).isZero();
            assertThat(scan.stderr()).contains("scan: fixture-server 1.0 (protocol 2025-06-18) lists 11 tools");
            assertChecks(dir, "http.json");
            assertThat(categoriesOf(JSON.readTree(dir.resolve("http.json").toFile()).path("tools"))).isEqualTo(FIXTURE_CATEGORIES);

            Result missing = scan(dir, "--url", "http://127.0.0.1:" + listening.group(1) + "/mcp", "--header", "Mcp-Session-Id: x");
            assertThat(missing.exit()).isEqualTo(2);
            assertThat(missing.stderr()).contains("scan: --header cannot set Mcp-Session-Id: scan sets it itself");
        }
    }

    @Test
    void aServerThatNeverAnswersTimesOutAndIsKilledWithItsChildren() throws Exception {
        Path dir = Fixtures.workDir("ScanIT-hang");
        // a shell that starts a child of its own, writes both pids, and answers nothing
        Result scan = scan(dir, "--timeout", "2s", "--", "sh", "-c", "sleep 300 & echo $! > child.pid; echo $$ > server.pid; wait");
        assertThat(scan.exit()).as(scan.toString()).isEqualTo(3);
        assertThat(scan.stderr()).containsExactly(
                "scan: the server did not answer initialize in time (it is running, but wrote no answer on stdout)",
                "scan: gave up after 2s (--timeout); the server was stopped");
        assertThat(scan.stdout()).isEmpty();
        assertGone(dir.resolve("server.pid"));
        assertGone(dir.resolve("child.pid"));
    }

    @Test
    void aServerThatExitsAtOnceOrWritesWhatIsNotJsonRpcGetsOneClearError() throws Exception {
        Path dir = Fixtures.workDir("ScanIT-broken");
        Result exits = scan(dir, "--", "sh", "-c", "echo 'no config file' >&2; exit 7");
        assertThat(exits.exit()).as(exits.toString()).isEqualTo(1);
        assertThat(exits.stderr()).hasSize(3).element(0).asString().matches("scan: the server exited with code 7 before it (read|answered) initialize");
        assertThat(exits.stderr()).endsWith("  the server's last lines on stderr:", "    no config file");

        Result garbage = scan(dir, "--", "sh", "-c", "echo 'Server ready on stdio'; sleep 300");
        assertThat(garbage.exit()).as(garbage.toString()).isEqualTo(1);
        assertThat(garbage.stderr()).containsExactly("scan: the server wrote a line on stdout that is not a JSON-RPC message:"
                + " 'Server ready on stdio'; a stdio MCP server must write only JSON-RPC messages there");

        Result missing = scan(dir, "--", dir.resolve("no-such-server").toString());
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.stderr()).singleElement().asString().startsWith("scan: cannot start the server '" + dir.resolve("no-such-server") + "': ");

        Result refused = scan(dir, "--url", "http://127.0.0.1:9/mcp");
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.stderr()).containsExactly("scan: cannot reach http://127.0.0.1:9/mcp: nothing answers there (connection refused)");
    }

    /** The process whose pid {@code pidFile} holds has ended: gone, or a zombie left for its new parent to reap. */
    private static void assertGone(Path pidFile) throws Exception {
        assertThat(pidFile).as("the server wrote its pid before it was stopped").exists();
        long pid = Long.parseLong(Files.readString(pidFile).trim());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (running(pid)) {
            assertThat(System.nanoTime() < deadline).as("process %d from %s still running", pid, pidFile).isTrue();
            ProcessHandle.of(pid).ifPresent(handle -> handle.onExit().completeOnTimeout(handle, 100, TimeUnit.MILLISECONDS).join());
        }
    }

    private static boolean running(long pid) throws IOException {
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            Path stat = Path.of("/proc", Long.toString(pid), "stat");
            if (!Files.exists(stat)) {
                return !Files.isDirectory(Path.of("/proc/self"));
            }
            String fields = Files.readString(stat);
            return !fields.substring(fields.lastIndexOf(')') + 2).startsWith("Z");
        }
        return false;
    }


    private static void assertChecks(Path dir, String policy) throws Exception {
        Result check = run(dir, List.of("check", policy));
        assertThat(check.exit()).as(check.toString()).isZero();
        assertThat(check.stdout()).startsWith(policy + ": OK (");
        assertThat(check.toString()).doesNotContain("WARN", "error");
    }

    private static Map<String, String> categoriesOf(JsonNode tools) {
        Map<String, String> categories = new LinkedHashMap<>();
        tools.properties().forEach(tool -> categories.put(tool.getKey(), tool.getValue().path("reason").asText().replaceAll(":.*", "")));
        return categories;
    }

    private static Map<String, String> categories(String... pairs) {
        Map<String, String> categories = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            categories.put(pairs[i], pairs[i + 1]);
        }
        return categories;
    }

    /** One run of the agent jar's command line: its exit code, stdout, and stderr lines. */
    record Result(int exit, String stdout, List<String> stderr) {
        @Override
        public String toString() {
            return "exit " + exit + "\n---- stdout\n" + stdout + "\n---- stderr\n" + String.join("\n", stderr);
        }
    }

    private static Result scan(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("scan"));
        command.addAll(List.of(args));
        return run(dir, command);
    }

    private static Result run(Path dir, List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ForkedJvm.javaExecutable(), "-jar", Fixtures.agentJar().toString()));
        command.addAll(args);
        Process process = new ProcessBuilder(command).directory(dir.toFile()).start();
        process.getOutputStream().close();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        String out = read(process.getInputStream());
        if (!process.waitFor(ForkedJvm.TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not exit");
        }
        String stderr = err.get(ForkedJvm.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        return new Result(process.exitValue(), out, stderr.isEmpty() ? List.of() : List.of(stderr.split("\n")));
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
