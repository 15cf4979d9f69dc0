package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The TypeScript MCP SDK's client (a third-party peer) keeps 200 mixed calls in flight against a Java server under the
 * agent whose policy judges resources, prompts and answers (SPEC §12–§13, {@link AbstractResourceScenarios#SERVER_POLICY}):
 * tool calls, reads of a resource with a planted key, a prompt whose message holds a token, and reads the policy
 * denies. Every call is answered exactly once, as its rule says, on the oldest and the newest classic SDK.
 */
class TypeScriptResourceClientIT {
    private static final String AWS_KEY = "AKIA" + "IOSFODNN7EXAMPLE";
    private static final String GITHUB_TOKEN = "ghp_" + "a1B2".repeat(9);

    @ParameterizedTest
    @ValueSource(strings = {"0.10.0", "2.1.0"})
    void answersEveryReadPromptAndCallOfAPipeliningTypeScriptClientOnce(String sdkVersion) throws Exception {
        Path sdk = TypeScriptPeers.sdk();
        Path dir = Fixtures.workDir("TypeScriptResourceClientIT-" + sdkVersion);
        Files.writeString(dir.resolve("mcp-policy.json"), AbstractResourceScenarios.SERVER_POLICY);
        StringBuilder calls = new StringBuilder("[");
        for (int i = 0; i < 200; i++) {
            String call = switch (i % 4) {
                case 0 -> "{\"id\":" + i + ",\"name\":\"echo\",\"arguments\":{\"text\":\"e" + i + "\"}}";
                case 1 -> "{\"id\":" + i + ",\"uri\":\"file:///public/keys.txt\"}";
                case 2 -> "{\"id\":" + i + ",\"prompt\":\"leaky\",\"arguments\":{}}";
                default -> "{\"id\":" + i + ",\"uri\":\"file:///etc/passwd\"}";
            };
            calls.append(i == 0 ? "" : ",").append(call);
        }
        Path callsFile = Files.writeString(dir.resolve("calls.json"), calls.append(']').toString());
        Path script = Path.of(TypeScriptResourceClientIT.class.getResource("/ts-pipelining-client.mjs").toURI());
        List<String> command = new ArrayList<>(List.of("node", script.toString(), sdk.toString(), callsFile.toString(), "--",
                ForkedJvm.javaExecutable(), Fixtures.javaagent("audit=audit.jsonl"), "-Dfixture.catalog=true",
                "-cp", Fixtures.classPath(sdkVersion), "fixture.FixtureServer", "stdio"));
        try (ForkedJvm client = ForkedJvm.startProcess("ts-resource-client-" + sdkVersion, dir, command)) {
            client.awaitStdout(0, line -> line.startsWith("{\"done\":"));
            Map<Integer, String> answers = client.stdout().stream().filter(line -> line.startsWith("{\"id\":"))
                    .collect(Collectors.toMap(line -> Integer.parseInt(line.substring(6, line.indexOf(','))), line -> line));
            assertThat(answers).as(client.dump()).hasSize(200);
            for (Map.Entry<Integer, String> answer : answers.entrySet()) {
                int i = answer.getKey();
                String line = answer.getValue();
                assertThat(line).as("call %d", i).doesNotContain(AWS_KEY).doesNotContain(GITHUB_TOKEN);
                switch (i % 4) {
                    case 0 -> assertThat(line).as("call %d", i).contains("\"text\":\"echo: e" + i + "\"");
                    case 1 -> assertThat(line).as("call %d", i).contains("deploy key id=[REDACTED:aws-access-token] ok");
                    case 2 -> assertThat(line).as("call %d", i).contains("Use the token [REDACTED:github-pat] to log in.");
                    default -> assertThat(line).as("call %d", i).contains("\"error\"")
                            .contains("Policy denied resource 'file:///etc/passwd': system files are off limits");
                }
            }
            List<String> decisions = client.awaitStderrCount(l -> l.contains("mcp-policy decision="), 200, Duration.ofSeconds(10));
            assertThat(decisions).as(client.dump()).hasSize(200);
            assertThat(decisions).filteredOn(l -> l.contains("kind=resource uri=file:///public/keys.txt"))
                    .hasSize(50).allMatch(l -> l.contains("redacted=aws-access-token:1"));
            assertThat(AuditFiles.awaitLines(dir.resolve("audit.jsonl"), 200)).hasSize(200)
                    .filteredOn(l -> l.contains("\"kind\":\"prompt\"")).hasSize(50).allMatch(l -> l.contains("\"redacted\":\"github-pat:1\""));
            assertThat(client.stderr()).noneMatch(l -> l.contains("advice error") || l.contains("Failed to enqueue"));
        }
    }
}
