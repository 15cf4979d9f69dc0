package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Faults injected into real apps under the real agent (issue 8 §3): the app's logger throws, the audit
 * file is on a full disk ({@code /dev/full}) or its directory is removed, tool arguments throw when
 * read (inside the engine and while hashing them for the log), the policy file disappears. Every call
 * is still answered and decided, never let through by a fault (on_error=deny), the app never sees an
 * agent exception, and each kind of fault is reported once, not once per call.
 */
abstract class AbstractFaultScenarios {
    static final int REPEAT = 12;
    static final String ALLOW_ALL = "{ \"version\": \"1\", \"default\": \"allow\" }";

    abstract String sdkVersion();

    private String name(String scenario) {
        return getClass().getSimpleName() + "-" + scenario;
    }

    @Test
    void aThrowingAppLoggerAndAFullDiskNeitherFailNorBlockACall() throws Exception {
        try (McpPair pair = McpPair.start(name("sinks"), sdkVersion(), "stdio", false, CallMix.POLICY, ALLOW_ALL,
                "audit=/dev/full", "", List.of("-Dfixture.throwingLog=true"), Fixtures.classPathWithoutProvider(sdkVersion()))) {
            for (int i = 0; i < REPEAT; i++) {
                assertThat(pair.call("echo", "{\"text\":\"e" + i + "\"}")).isEqualTo("RESULT isError=false text=echo: e" + i);
                assertThat(pair.call("run_command", "{\"command\":\"rm -rf /\"}"))
                        .startsWith("RESULT isError=true text=Policy denied tool 'run_command': denied by condition");
            }
            pair.sync();
            List<String> log = pair.serverLog();
            assertThat(log).as(pair.dump()).filteredOn(l -> l.startsWith("HANDLER RAN run_command")).isEmpty();
            // the line the app's logger refused is on stderr instead, one per decision
            assertThat(log).filteredOn(l -> l.startsWith("mcp-policy decision=ALLOW tool=echo side=server")).hasSize(REPEAT + 1);
            assertThat(log).filteredOn(l -> l.startsWith("mcp-policy decision=DENY tool=run_command side=server")).hasSize(REPEAT);
            // 25 failures of the app's logger: printed the 1st and the 10th time, counted always
            List<String> sink = log.stream().filter(l -> l.contains("advice error in decision log sink")).toList();
            assertThat(sink).as(pair.dump()).hasSize(2).allMatch(l -> l.contains("the app's log handler failed"));
            assertThat(sink.get(0)).contains("counted, not printed each time");
            assertThat(sink.get(1)).contains("[10 of this kind so far");
            // a full disk: every batch fails; the first failure (and the 10th...) is printed, never one per call
            List<String> audit = log.stream().filter(l -> l.contains("advice error in audit file /dev/full")).toList();
            assertThat(audit).as(pair.dump()).isNotEmpty().hasSizeLessThanOrEqualTo(2)
                    .allMatch(l -> l.contains("No space left on device"));
        }
    }

    @Test
    void anAuditDirectoryRemovedUnderTheAgentIsCreatedAgain() throws Exception {
        try (McpPair pair = McpPair.start(name("audit-dir"), sdkVersion(), "stdio", CallMix.POLICY, ALLOW_ALL,
                "audit=audit/decisions.jsonl", "")) {
            Path dir = Fixtures.workPath(name("audit-dir")).resolve("server/audit");
            assertThat(pair.call("echo", "{\"text\":\"one\"}")).isEqualTo("RESULT isError=false text=echo: one");
            Path file = dir.resolve("decisions.jsonl");
            AuditFiles.awaitLines(file, 1);
            Files.delete(file);
            Files.delete(dir);
            assertThat(pair.call("echo", "{\"text\":\"two\"}")).isEqualTo("RESULT isError=false text=echo: two");
            List<String> records = AuditFiles.awaitLines(file, 1);
            assertThat(records).hasSize(1).allMatch(r -> r.contains("\"tool\":\"echo\"") && r.contains("\"decision\":\"ALLOW\""));
            pair.awaitServerLog(l -> l.contains("audit file " + file + " was removed; it is created again"));
        }
    }

    @Test
    void argumentsThatThrowWhenReadAreDeniedNotSentAndReportedOnce() throws Exception {
        String clientPolicy = """
                { "version": "1", "default": "allow",
                  "tools": { "run_command": { "deny_if": [ { "path": "command", "op": "contains", "value": "rm -rf" } ] } } }
                """;
        try (McpPair pair = McpPair.start(name("arguments"), sdkVersion(), "stdio", CallMix.POLICY, clientPolicy, "", "")) {
            for (int i = 0; i < REPEAT; i++) {
                for (String hostile : List.of("@throwing", "@values-throw")) {
                    String answer = pair.call("run_command", hostile);
                    assertThat(answer).as(pair.dump()).matches("RESULT isError=true text=Policy denied tool 'run_command': internal error \\(id [0-9a-f]{8}\\);"
                            + " the app's log has the details \\[rule \\(error\\)\\]");
                }
            }
            assertThat(pair.call("run_command", "{\"command\":\"ls\"}")).isEqualTo("RESULT isError=false text=run_command done");
            pair.sync();
            assertThat(pair.serverLog()).filteredOn(l -> l.startsWith("HANDLER RAN run_command")).hasSize(1);
            List<String> client = pair.clientLog();
            // 24 faults of one kind: printed the 1st and the 10th time, counted always
            List<String> reported = client.stream().filter(l -> l.contains("advice error in policy engine deciding")).toList();
            assertThat(reported).as(pair.dump()).hasSize(2);
            assertThat(reported.get(0)).contains("hostile arguments", "counted, not printed each time");
            assertThat(reported.get(1)).contains("[10 of this kind so far");
            assertThat(client).filteredOn(l -> l.contains("decision=DENY tool=run_command side=client") && l.contains("rule=(error)"))
                    .hasSize(2 * REPEAT)
                    .allMatch(l -> l.matches(".* args_unreadable=[A-Za-z]+Exception took_us=\\d+") && !l.contains("args_sha256="));
            assertThat(client).noneMatch(l -> l.startsWith(">> ERROR"));
        }
    }

    @Test
    void aPolicyFileRemovedAfterStartKeepsTheLoadedPolicyInForce() throws Exception {
        try (McpPair pair = McpPair.start(name("policy-gone"), sdkVersion(), "stdio", CallMix.POLICY, ALLOW_ALL, "", "")) {
            assertThat(pair.call("echo", "{\"text\":\"before\"}")).isEqualTo("RESULT isError=false text=echo: before");
            Files.delete(Fixtures.workPath(name("policy-gone")).resolve("server/mcp-policy.json"));
            assertThat(pair.call("echo", "{\"text\":\"after\"}")).isEqualTo("RESULT isError=false text=echo: after");
            assertThat(pair.call("run_command", "{\"command\":\"rm -rf /\"}"))
                    .startsWith("RESULT isError=true text=Policy denied tool 'run_command': denied by condition");
            assertThat(pair.call("unlisted_tool", "{}")).endsWith("[rule (default)]");
            pair.sync();
            assertThat(pair.serverLog()).noneMatch(l -> l.contains("advice error"));
        }
    }
}
