package dev.mcppolicy.demo.conformance;

import dev.mcppolicy.demo.ForkedProcess;
import dev.mcppolicy.demo.peers.Peers;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One run of {@code @modelcontextprotocol/conformance server} against {@link ConformanceServer} forked
 * from the demo jar. The JVM options are the caller's, so the same run can be made with and without
 * {@code -javaagent} and the two outcomes compared.
 *
 * <p>The suite comes from the peers directory that {@code .ci/install-peers.sh} fills (see {@link Peers}).
 * Installing it is not a test's job.
 */
public final class ConformanceRun {
    private static final Pattern LISTENING = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+/mcp)");
    /** Each scenario writes {@code server-SCENARIO-TIMESTAMP/checks.json} into the output directory. */
    private static final Pattern SCENARIO_DIR =
            Pattern.compile("server-(.+)-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z");
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration SUITE = Duration.ofMinutes(5);

    private ConformanceRun() {
    }

    /**
     * What a run found: per scenario, whether it passed (no check with status FAILURE), and the
     * failing checks' messages for the assertion that reports them.
     */
    public record Results(Map<String, Boolean> passed, Map<String, List<String>> failures, Path outputDir) {
        String report() {
            StringBuilder report = new StringBuilder("conformance results in ").append(outputDir);
            failures.forEach((scenario, messages) -> report.append("\n  ").append(scenario).append(": ")
                    .append(String.join("; ", messages)));
            return report.toString();
        }
    }

    /**
     * Starts the fixture with {@code jvmOptions}, runs the active server suite against it and stops it.
     * Results land in {@code target/conformance/LABEL}.
     */
    public static Results run(String label, List<String> jvmOptions) throws IOException, InterruptedException {
        Path suite = conformanceScript();
        Path outputDir = Path.of(System.getProperty("conformance.output", "target/conformance")).resolve(label);
        deleteRecursively(outputDir);
        Files.createDirectories(outputDir);
        List<String> command = new ArrayList<>(jvmOptions);
        command.addAll(List.of("-cp", ForkedProcess.DEMO_JAR.toString(), ConformanceServer.class.getName(),
                "--port", "0"));
        try (ForkedProcess fixture = ForkedProcess.java(command.toArray(String[]::new))) {
            String url = fixture.awaitStderr(LISTENING, STARTUP);
            runSuite(suite, url, outputDir);
            Files.write(outputDir.resolve("fixture-stderr.txt"), fixture.stderr(), StandardCharsets.UTF_8);
        }
        return read(outputDir);
    }

    private static void runSuite(Path suite, String url, Path outputDir) throws IOException, InterruptedException {
        Process node;
        try {
            node = new ProcessBuilder("node", suite.toString(), "server", "--url", url, "-o", outputDir.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(outputDir.resolve("suite-output.txt").toFile())
                    .start();
        } catch (IOException e) {
            throw new AssertionError("cannot start node (" + e.getMessage() + ")" + Peers.INSTALL_HINT, e);
        }
        if (!node.waitFor(SUITE.toMillis(), TimeUnit.MILLISECONDS)) {
            node.destroyForcibly();
            throw new AssertionError("the conformance suite did not end within " + SUITE + "; see " + outputDir);
        }
        // Exit status 1 only says some scenario failed; the checks say which.
    }

    static Results read(Path outputDir) throws IOException {
        Map<String, Boolean> passed = new TreeMap<>();
        Map<String, List<String>> failures = new TreeMap<>();
        try (Stream<Path> dirs = Files.list(outputDir)) {
            for (Path dir : dirs.filter(Files::isDirectory).toList()) {
                Matcher name = SCENARIO_DIR.matcher(dir.getFileName().toString());
                Path checksFile = dir.resolve("checks.json");
                if (!name.matches() || !Files.exists(checksFile)) {
                    continue;
                }
                List<String> failed = failedChecks(checksFile);
                passed.put(name.group(1), failed.isEmpty());
                if (!failed.isEmpty()) {
                    failures.put(name.group(1), failed);
                }
            }
        }
        return new Results(passed, failures, outputDir);
    }

    private static List<String> failedChecks(Path checksFile) throws IOException {
        List<Map<String, Object>> checks = McpJsonDefaults.getMapper()
                .readValue(Files.readString(checksFile), new TypeRef<List<Map<String, Object>>>() {
                });
        if (checks.isEmpty()) {
            return List.of("no checks recorded");
        }
        return checks.stream()
                .filter(check -> "FAILURE".equals(check.get("status")))
                .map(check -> check.get("id") + ": " + check.get("errorMessage"))
                .toList();
    }

    private static Path conformanceScript() throws IOException {
        return Peers.path("MCP_CONFORMANCE");
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(path);
            }
        }
    }
}
