package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The examples under {@code examples/} (issue 33) are what their READMEs say, proven with the built agent jar in
 * forked JVMs (and, where a container engine is installed, in a real container):
 * <ul>
 * <li>{@code examples/policies/} holds one policy per seed server, exactly the five sandbox tools this product
 * was started for; for each, the shaded jar's {@code check} prints {@code OK} with no warning and its
 * {@code test} passes every case of {@code cases.yaml} (exit 0, the number of cases reported is the number in
 * the file), with at least 4 allowed and 6 denied calls, and every rule of the policy (each schema, each
 * {@code require}, {@code deny_if} and limit, each {@code deny} or {@code require_approval} rule, the default)
 * is the expected rule of some case;</li>
 * <li>{@code examples/kubernetes/} parses, and keeps its contract: the ConfigMap's data key is the policy file
 * {@code JAVA_TOOL_OPTIONS} names, {@code check} accepts its content, the Deployment mounts it read-only as a
 * directory (no {@code subPath}, so updates reach the file and the agent's reload) at that file's directory,
 * runs as non-root, binds the admin endpoint to 127.0.0.1 only, and the kustomization lists every manifest;</li>
 * <li>{@code examples/container/Dockerfile} is on {@code eclipse-temurin:17-jre}, sets {@code JAVA_TOOL_OPTIONS}
 * with a {@code -javaagent:} path it copies the agent jar to, copies no policy, and runs as non-root; where
 * {@code docker} or {@code podman} is on the PATH and answers {@code info} (a daemon to build with), the image is
 * built with the demo sandbox server as its app, runs as non-root, passes the mounted policy to the jar's
 * {@code check}, and, with the E2B policy mounted read-only, reads that policy and denies {@code rm -rf} by its
 * rule; otherwise that test is skipped, saying why.</li>
 * </ul>
 */
class ExamplesIT {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Set<String> SEED_SERVERS = Set.of("boxxkite", "e2b", "easybits", "modal", "virtualbox");
    private static final String POLICY = "mcp-policy.yaml";
    private static final String CASES = "cases.yaml";
    private static final Pattern JAVAAGENT = Pattern.compile("-javaagent:([^=\\s\"]+)(?:=(\\S+))?");
    private static final Duration IMAGE_BUILD_TIMEOUT = Duration.ofMinutes(10);

    @Test
    void theExamplePoliciesAreExactlyTheFiveSeedServers() throws IOException {
        assertThat(servers()).containsExactlyInAnyOrderElementsOf(SEED_SERVERS);
        String readme = Files.readString(policies().resolve("README.md"));
        for (String server : SEED_SERVERS) {
            assertThat(policies().resolve(server).resolve(POLICY)).isRegularFile();
            assertThat(policies().resolve(server).resolve(CASES)).isRegularFile();
            assertThat(readme).as("the table links " + server).contains("(" + server + "/)");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void eachPolicyChecksCleanAndPassesEveryCaseCoveringEveryRule(String server) throws Exception {
        Path dir = policies().resolve(server);
        assertChecksClean(dir, POLICY);

        JsonNode cases = YAML.readTree(dir.resolve(CASES).toFile()).path("cases");
        Result test = agentCli(dir, "test", POLICY, CASES);
        assertThat(test.exit()).as(test.toString()).isZero();
        List<String> lines = test.stdout().lines().toList();
        assertThat(lines).as(test.toString()).last().isEqualTo(cases.size() + " cases, 0 failed");
        assertThat(lines.stream().filter(line -> line.startsWith("PASS "))).as(test.toString()).hasSize(cases.size());

        Map<String, Integer> outcomes = new LinkedHashMap<>();
        cases.forEach(oneCase -> outcomes.merge(outcome(oneCase), 1, Integer::sum));
        assertThat(outcomes.getOrDefault("ALLOW", 0)).as("allowed cases " + outcomes).isGreaterThanOrEqualTo(4);
        assertThat(outcomes.getOrDefault("DENY", 0)).as("denied cases " + outcomes).isGreaterThanOrEqualTo(6);

        Set<String> rules = rulePointers(YAML.readTree(dir.resolve(POLICY).toFile()));
        Set<String> expected = expectedRules(cases);
        assertThat(expected).as("rules of %s/%s that no case expects", server, POLICY).containsAll(rules);
    }

    @Test
    void theKubernetesManifestsMountThePolicyTheAgentIsToldToRead() throws Exception {
        Path kubernetes = examples().resolve("kubernetes");
        Map<String, List<JsonNode>> byKind = new LinkedHashMap<>();
        List<String> manifests = new ArrayList<>();
        try (Stream<Path> files = Files.list(kubernetes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                List<JsonNode> documents;
                try (MappingIterator<JsonNode> values = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
                    documents = values.readAll();
                }
                assertThat(documents).as(file + " holds a manifest").isNotEmpty();
                for (JsonNode document : documents) {
                    assertThat(document.path("kind").asText()).as(file + ": kind").isNotEmpty();
                    byKind.computeIfAbsent(document.path("kind").asText(), kind -> new ArrayList<>()).add(document);
                }
                if (!file.getFileName().toString().equals("kustomization.yaml")) {
                    manifests.add(file.getFileName().toString());
                }
            }
        }
        assertThat(byKind.get("Kustomization")).hasSize(1);
        assertThat(texts(byKind.get("Kustomization").get(0).path("resources"))).containsExactlyInAnyOrderElementsOf(manifests);
        assertThat(byKind.get("Deployment")).hasSize(1);
        JsonNode pod = byKind.get("Deployment").get(0).path("spec").path("template").path("spec");

        JsonNode app = null;
        String toolOptions = null;
        for (JsonNode container : pod.path("containers")) {
            for (JsonNode env : container.path("env")) {
                if (env.path("name").asText().equals("JAVA_TOOL_OPTIONS")) {
                    app = container;
                    toolOptions = env.path("value").asText();
                }
            }
        }
        assertThat(toolOptions).as("a container sets JAVA_TOOL_OPTIONS").isNotNull();
        Matcher javaagent = JAVAAGENT.matcher(toolOptions);
        assertThat(javaagent.find()).as(toolOptions).isTrue();
        assertThat(javaagent.group(1)).as("the agent jar is where the Dockerfile copies it").isEqualTo(dockerfileAgentJar());
        Map<String, String> options = agentOptions(javaagent.group(2));
        Path policy = Path.of(options.getOrDefault("policy", ""));
        assertThat(policy.isAbsolute()).as("policy= names an absolute path: " + options).isTrue();

        JsonNode mount = null;
        for (JsonNode volumeMount : app.path("volumeMounts")) {
            if (Path.of(volumeMount.path("mountPath").asText()).equals(policy.getParent())) {
                mount = volumeMount;
            }
        }
        assertThat(mount).as("a volume is mounted at " + policy.getParent()).isNotNull();
        assertThat(mount.path("readOnly").asBoolean()).as("mounted read-only").isTrue();
        assertThat(mount.has("subPath") || mount.has("subPathExpr")).as("mounted without subPath, so updates reach it").isFalse();
        JsonNode volume = null;
        for (JsonNode candidate : pod.path("volumes")) {
            if (candidate.path("name").asText().equals(mount.path("name").asText())) {
                volume = candidate;
            }
        }
        assertThat(volume).as("the mounted volume is declared").isNotNull();
        String configMapName = volume.path("configMap").path("name").asText();
        assertThat(configMapName).as("the policy volume is a ConfigMap").isNotEmpty();
        assertThat(volume.path("configMap").has("items")).as("the whole ConfigMap, keys as file names").isFalse();

        JsonNode configMap = byKind.getOrDefault("ConfigMap", List.of()).stream()
                .filter(map -> map.path("metadata").path("name").asText().equals(configMapName)).findFirst().orElse(null);
        assertThat(configMap).as("the ConfigMap " + configMapName).isNotNull();
        String fileName = policy.getFileName().toString();
        assertThat(fieldNames(configMap.path("data"))).as("its data key is the policy file's name").containsExactly(fileName);
        String content = configMap.path("data").path(fileName).asText();
        Path written = Files.createDirectories(Fixtures.workDir("ExamplesIT-configmap")).resolve(fileName);
        Files.writeString(written, content);
        assertChecksClean(written.getParent(), fileName);
        assertThat(content).as("the ConfigMap holds the E2B example policy, which its cases test")
                .isEqualTo(Files.readString(policies().resolve("e2b").resolve(POLICY)));

        JsonNode podSecurity = pod.path("securityContext");
        JsonNode appSecurity = app.path("securityContext");
        assertThat(appSecurity.path("runAsNonRoot").asBoolean(podSecurity.path("runAsNonRoot").asBoolean())).as("runAsNonRoot").isTrue();
        assertThat(appSecurity.path("runAsUser").asInt(podSecurity.path("runAsUser").asInt(-1))).as("runAsUser").isNotZero();
        assertThat(app.path("readinessProbe").isObject()).as("a readiness probe").isTrue();
        assertThat(app.path("resources").path("requests").isObject()).as("resource requests").isTrue();
        if (options.containsKey("admin")) {
            assertThat(options.get("admin")).as("the admin endpoint is on loopback only").matches("127\\.0\\.0\\.1:[0-9]+");
            String adminPort = options.get("admin").substring("127.0.0.1:".length());
            assertThat(app.path("ports").findValuesAsText("containerPort")).as("the admin port is no container port").doesNotContain(adminPort);
        }
    }

    @Test
    void theDockerfileTurnsTheAgentOnAndLeavesThePolicyToAMount() throws IOException {
        List<String> instructions = dockerfile();
        assertThat(instructions).first().isEqualTo("FROM eclipse-temurin:17-jre");
        String agentJar = dockerfileAgentJar();
        List<List<String>> copies = copies(instructions);
        assertThat(copies).as("the agent jar is copied to the -javaagent: path").anyMatch(copy -> copy.get(copy.size() - 1).equals(agentJar));

        String toolOptions = env(instructions, "JAVA_TOOL_OPTIONS");
        Matcher javaagent = JAVAAGENT.matcher(toolOptions);
        assertThat(javaagent.find()).isTrue();
        Path policy = Path.of(agentOptions(javaagent.group(2)).getOrDefault("policy", ""));
        assertThat(policy.isAbsolute()).as("policy= names an absolute path: " + toolOptions).isTrue();
        for (List<String> copy : copies) {
            Path destination = Path.of(copy.get(copy.size() - 1));
            assertThat(destination.startsWith(policy.getParent()) || policy.startsWith(destination))
                    .as("%s copies nothing where the policy is mounted", copy).isFalse();
            assertThat(copy.subList(0, copy.size() - 1)).as("%s copies no policy file", copy)
                    .noneMatch(source -> source.matches("(?i).*\\.(ya?ml|json)"));
        }
        List<String> users = instructions.stream().filter(line -> line.startsWith("USER ")).toList();
        assertThat(users).as("a USER instruction").isNotEmpty();
        assertThat(users.get(users.size() - 1)).as("the app does not run as root").doesNotMatch("USER (root|0)(:.*)?");
    }

    @Test
    void theImageRunsTheAppUnderTheAgentWithTheMountedPolicy() throws Exception {
        List<String> engines = containerEngines();
        assumeTrue(!engines.isEmpty(), "neither docker nor podman is on the PATH: the image is not built");
        Path context = Fixtures.workDir("ExamplesIT-image");
        String engine = null;
        List<String> unusable = new ArrayList<>();
        for (String candidate : engines) {
            Result info = run(context, ForkedJvm.TIMEOUT, List.of(candidate, "info"));
            if (info.exit() == 0) {
                engine = candidate;
                break;
            }
            unusable.add(candidate + " info: exit " + info.exit() + ", " + info.stderr().strip().lines().reduce((first, last) -> last).orElse(""));
        }
        assumeTrue(engine != null, () -> "docker/podman is on the PATH but cannot build or run (" + String.join("; ", unusable)
                + "): the image is not built");
        Files.createDirectories(context.resolve("agent/target"));
        Files.copy(Fixtures.agentJar(), context.resolve("agent/target/mcp-policy-agent.jar"));
        Files.copy(Fixtures.demoJar(), context.resolve("app.jar"));
        String image = "mcp-policy-examples-it:" + ProcessHandle.current().pid();
        String container = "mcp-policy-examples-it-" + ProcessHandle.current().pid();
        Path e2b = policies().resolve("e2b");

        Result build = run(context, IMAGE_BUILD_TIMEOUT, List.of(engine, "build", "-f", examples().resolve("container/Dockerfile").toString(),
                "--build-arg", "APP_JAR=app.jar", "-t", image, context.toString()));
        assertThat(build.exit()).as(build.toString()).isZero();
        try {
            Result user = run(context, ForkedJvm.TIMEOUT, List.of(engine, "run", "--rm", "--entrypoint", "id", image, "-u"));
            assertThat(user.exit()).as(user.toString()).isZero();
            assertThat(user.stdout().strip()).as("the image's user").isNotEqualTo("0");

            Result check = run(context, ForkedJvm.TIMEOUT, List.of(engine, "run", "--rm", "--entrypoint", "java", "-v", e2b + ":/etc/mcp-policy:ro",
                    image, "-jar", "/opt/mcp-policy/mcp-policy-agent.jar", "check", "/etc/mcp-policy/" + POLICY));
            assertThat(check.exit()).as(check.toString()).isZero();
            assertThat(check.stdout()).as(check.toString()).contains(": OK (");

            try (ForkedJvm app = ForkedJvm.startProcess("ExamplesIT-container", context, List.of(engine, "run", "--rm", "-i", "--name", container,
                    "--read-only", "--tmpfs", "/tmp", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
                    "-v", e2b + ":/etc/mcp-policy:ro", image))) {
                StdioRpc.initialize(app);
                String denied = StdioRpc.callText(app, "rm", "run_command",
                        "{\"command\":\"git pull && rm -rf /\",\"sandboxId\":\"i6ab0kb1s8wtg2trv5hna\"}");
                assertThat(denied).as(app.dump()).startsWith("Policy denied tool 'run_command': ")
                        .endsWith("[rule /tools/run_command/deny_if/0]");
                app.awaitStderr(line -> line.startsWith("[mcp-policy] policy /etc/mcp-policy/" + POLICY + " sha256="));
            } finally {
                run(context, ForkedJvm.TIMEOUT, List.of(engine, "rm", "-f", container));
            }
        } finally {
            run(context, ForkedJvm.TIMEOUT, List.of(engine, "rmi", "-f", image));
        }
    }

    // ---- the examples' files

    private static Path examples() {
        Path dir = Path.of(System.getProperty("examples.dir", "../../examples")).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("examples directory not found: " + dir);
        }
        return dir;
    }

    private static Path policies() {
        return examples().resolve("policies");
    }

    /** The directories under {@code examples/policies}, one per server. */
    static List<String> servers() throws IOException {
        try (Stream<Path> entries = Files.list(policies())) {
            return entries.filter(Files::isDirectory).map(dir -> dir.getFileName().toString()).sorted().toList();
        }
    }

    /** The Dockerfile's instructions: comments and blank lines dropped, continued lines joined. */
    private static List<String> dockerfile() throws IOException {
        List<String> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Files.readAllLines(examples().resolve("container/Dockerfile"))) {
            String trimmed = line.strip();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && current.length() == 0)) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            instructions.add(current.append(trimmed).toString().replaceAll("\\s+", " ").strip());
            current.setLength(0);
        }
        return instructions;
    }

    /** The sources and destination (last) of each {@code COPY} and {@code ADD}, flags left out. */
    private static List<List<String>> copies(List<String> instructions) {
        return instructions.stream().filter(line -> line.startsWith("COPY ") || line.startsWith("ADD "))
                .map(line -> Stream.of(line.split(" ")).skip(1).filter(word -> !word.startsWith("--")).toList()).toList();
    }

    private static String env(List<String> instructions, String name) {
        Pattern env = Pattern.compile("ENV " + name + "=(\"(.*)\"|(\\S+))");
        for (String line : instructions) {
            Matcher matcher = env.matcher(line);
            if (matcher.matches()) {
                return matcher.group(2) != null ? matcher.group(2) : matcher.group(3);
            }
        }
        throw new AssertionError("the Dockerfile sets no " + name + ": " + instructions);
    }

    /** Where the Dockerfile's {@code JAVA_TOOL_OPTIONS} has the JVM load the agent from. */
    private static String dockerfileAgentJar() throws IOException {
        Matcher javaagent = JAVAAGENT.matcher(env(dockerfile(), "JAVA_TOOL_OPTIONS"));
        assertThat(javaagent.find()).as("JAVA_TOOL_OPTIONS has -javaagent:").isTrue();
        return javaagent.group(1);
    }

    /** The agent's options ({@code key=value,key=value} after the jar's {@code =}). */
    private static Map<String, String> agentOptions(String options) {
        Map<String, String> parsed = new LinkedHashMap<>();
        if (options != null) {
            for (String option : options.split(",")) {
                int eq = option.indexOf('=');
                parsed.put(eq < 0 ? option : option.substring(0, eq), eq < 0 ? "" : option.substring(eq + 1));
            }
        }
        return parsed;
    }

    // ---- what a policy's rules are, and which rules its cases expect

    /** The JSON Pointer of every rule in the policy that can decide a call (SPEC §3's decision pointers). */
    private static Set<String> rulePointers(JsonNode policy) {
        Set<String> rules = new TreeSet<>();
        if (!policy.path("default").asText("deny").equals("allow")) {
            rules.add("(default)");
        }
        indexed(rules, "/all_tools/limits", policy.path("all_tools").path("limits"));
        policy.path("tools").properties().forEach(tool -> {
            String pointer = "/tools/" + tool.getKey().replace("~", "~0").replace("/", "~1");
            JsonNode rule = tool.getValue();
            String action = rule.path("action").asText("allow");
            if (action.equals("deny")) {
                rules.add(pointer);
                return;
            }
            if (action.equals("require_approval")) {
                rules.add(pointer);
            }
            if (rule.has("arguments")) {
                rules.add(pointer + "/arguments");
            }
            indexed(rules, pointer + "/require", rule.path("require"));
            indexed(rules, pointer + "/deny_if", rule.path("deny_if"));
            indexed(rules, pointer + "/limits", rule.path("limits"));
        });
        return rules;
    }

    private static void indexed(Set<String> rules, String pointer, JsonNode array) {
        for (int i = 0; i < array.size(); i++) {
            rules.add(pointer + "/" + i);
        }
    }

    /** The {@code rule} of every expectation in the cases, their steps' included. */
    private static Set<String> expectedRules(JsonNode cases) {
        Set<String> rules = new LinkedHashSet<>();
        for (JsonNode oneCase : cases) {
            List<JsonNode> expectations = new ArrayList<>(List.of(oneCase.path("expect")));
            oneCase.path("steps").forEach(step -> expectations.add(step.path("expect")));
            expectations.stream().map(expect -> expect.path("rule").asText()).filter(rule -> !rule.isEmpty()).forEach(rules::add);
        }
        return rules;
    }

    /** What a case is for: {@code DENY} when any of its expectations (its own, its steps') is a denial, else its decision. */
    private static String outcome(JsonNode oneCase) {
        List<String> decisions = new ArrayList<>();
        List<JsonNode> expectations = new ArrayList<>(List.of(oneCase.path("expect")));
        oneCase.path("steps").forEach(step -> expectations.add(step.path("expect")));
        for (JsonNode expect : expectations) {
            decisions.add(expect.isTextual() ? expect.asText() : expect.path("decision").asText());
        }
        return decisions.contains("DENY") ? "DENY" : decisions.contains("REQUIRE_APPROVAL") ? "REQUIRE_APPROVAL" : "ALLOW";
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        return texts;
    }

    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    // ---- running the agent's command line and the container engine

    private static void assertChecksClean(Path dir, String policy) throws Exception {
        Result check = agentCli(dir, "check", policy);
        assertThat(check.exit()).as(check.toString()).isZero();
        assertThat(check.stdout()).as(check.toString()).startsWith(policy + ": OK (");
        assertThat(check.toString()).as("no warning, no error").doesNotContain("WARN", "ERROR", "error");
    }

    private static Result agentCli(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(ForkedJvm.javaExecutable(), "-jar", Fixtures.agentJar().toString()));
        command.addAll(List.of(args));
        return run(dir, ForkedJvm.TIMEOUT, command);
    }

    /** The {@code docker} and {@code podman} executables on the PATH, in that order. */
    private static List<String> containerEngines() {
        List<String> engines = new ArrayList<>();
        for (String name : List.of("docker", "podman")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                    engines.add(Path.of(dir, name).toString());
                    break;
                }
            }
        }
        return engines;
    }

    /** One process run to its end: its exit code, stdout and stderr. */
    record Result(int exit, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exit + "\n---- stdout\n" + stdout + "\n---- stderr\n" + stderr;
        }
    }

    private static Result run(Path dir, Duration timeout, List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).start();
        process.getOutputStream().close();
        CompletableFuture<String> out = drain(process.getInputStream());
        CompletableFuture<String> err = drain(process.getErrorStream());
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError(command + " did not exit within " + timeout);
        }
        return new Result(process.exitValue(), out.get(timeout.toSeconds(), TimeUnit.SECONDS), err.get(timeout.toSeconds(), TimeUnit.SECONDS));
    }

    /** Reads {@code in} to its end on a thread of its own, so neither stream of a process can fill up and stall it. */
    private static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> text = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (in) {
                text.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                text.completeExceptionally(new UncheckedIOException(e));
            }
        }, "ExamplesIT-drain");
        reader.setDaemon(true);
        reader.start();
        return text;
    }
}
