package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * SPEC §12–§13 against one SDK version and transport: resource reads, prompts and their lists decided and filtered,
 * and answers judged (planted secrets redacted, an oversized result refused), on the server side (a pair whose server
 * policy is {@link #SERVER_POLICY}) and on the client side (a pair whose client policy is {@link #CLIENT_POLICY}).
 * Both pairs' servers offer the fixture {@code Catalog} ({@code -Dfixture.catalog=true}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class AbstractResourceScenarios {
    static final String AWS_KEY = "AKIA" + "IOSFODNN7EXAMPLE";
    static final String GITHUB_TOKEN = "ghp_" + "a1B2".repeat(9);

    /** The server judges: public files readable (secrets redacted), system files denied, prompts checked. */
    static final String SERVER_POLICY = """
            {
              "version": "1",
              "default": "deny",
              "tools": {
                "echo": {},
                "cat": { "result": { "redact": ["secrets"] } },
                "big": { "result": { "max_bytes": 4096 } },
                "profile": { "result": { "redact": ["secrets"] } }
              },
              "resource_default": "deny",
              "resources": {
                "file:///public/*": { "result": { "redact": ["secrets"] } },
                "file:///etc/*": { "action": "deny", "reason": "system files are off limits" }
              },
              "prompt_default": "deny",
              "prompts": {
                "summarize": { "require": [ { "path": "args.style", "op": "in", "value": ["short", "long"] } ] },
                "leaky": { "result": { "redact": ["secrets"] } },
                "forbidden": { "action": "deny", "reason": "not for agents" }
              }
            }
            """;

    /** The server lets everything through; the client judges what it asks its server and what it gets back. */
    static final String OPEN_POLICY = """
            { "version": "1", "default": "allow" }
            """;

    static final String CLIENT_POLICY = """
            {
              "version": "1",
              "default": "allow",
              "servers": {
                "fixture-server": {
                  "tools": { "cat": { "result": { "redact": ["secrets"], "deny_if": [ { "op": "contains", "value": "root:x:0" } ] } } },
                  "resources": { "file:///etc/*": { "action": "deny", "reason": "system files are off limits" } },
                  "prompts": { "leaky": { "result": { "redact": ["secrets"] } }, "forbidden": { "action": "deny" } }
                }
              }
            }
            """;

    private McpPair server;
    private McpPair client;

    abstract String sdkVersion();

    /** The pair whose server judges ({@link #SERVER_POLICY}), for a stack's own scenarios. */
    McpPair serverPair() {
        return server;
    }

    abstract String transport();

    /** A pair of the fixture server and client, the server offering the catalog ({@code serverJvmArgs}). */
    McpPair startPair(String name, String serverPolicy, String clientPolicy, List<String> serverJvmArgs) throws Exception {
        return McpPair.start(name, sdkVersion(), transport(), false, serverPolicy, clientPolicy, "", "", serverJvmArgs,
                Fixtures.classPath(sdkVersion()));
    }

    /** How the fixture client shows an MCP error answer: its exception's simple name. */
    String error() {
        return "ERROR McpError: ";
    }

    /** The startup lines of the server's hooked classes, as regular expressions. */
    List<String> serverHookLines() {
        return List.of("\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.server\\.McpAsyncServer .*: tools/call, tools/list, "
                + AbstractToolCallScenarios.SERVER_RESOURCE_HOOKS);
    }

    /** The startup lines of the client's hooked classes, as regular expressions. */
    List<String> clientHookLines() {
        return List.of("\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.client\\.McpAsyncClient .*: callTool, listTools, "
                + AbstractToolCallScenarios.CLIENT_RESOURCE_HOOKS);
    }

    @BeforeAll
    void startFixtures() throws Exception {
        String name = getClass().getSimpleName();
        List<String> catalog = List.of("-Dfixture.catalog=true");
        server = startPair(name + "-server", SERVER_POLICY, OPEN_POLICY, catalog);
        client = startPair(name + "-client", OPEN_POLICY, CLIENT_POLICY, catalog);
    }

    @AfterAll
    void stopFixturesAndCheckAgentHealth() throws Exception {
        try {
            for (McpPair pair : List.of(server, client)) {
                assertThat(pair.serverLog()).as("server agent errors\n%s", pair.dump()).noneMatch(AbstractResourceScenarios::agentError);
                assertThat(pair.clientLog()).as("client agent errors\n%s", pair.dump()).noneMatch(AbstractResourceScenarios::agentError);
            }
        } finally {
            server.close();
            client.close();
        }
    }

    private static boolean agentError(String line) {
        return line.contains("advice error") || line.contains("NOT instrumented") || line.contains("NOT policed")
                || line.contains("MORE than expected");
    }

    @Test
    void hooksResourcesAndPromptsOnBothSides() throws Exception {
        server.sync();
        for (String hook : serverHookLines()) {
            assertThat(server.serverLog()).as(server.dump()).anyMatch(line -> line.matches(hook));
        }
        for (String hook : clientHookLines()) {
            assertThat(server.clientLog()).as(server.dump()).anyMatch(line -> line.matches(hook));
        }
    }

    @Test
    void listsOnlyTheResourcesTemplatesAndPromptsTheServerPolicyLetsThrough() throws Exception {
        assertThat(server.command("resources")).isEqualTo("RESOURCES file:///public/keys.txt,file:///public/readme.txt");
        assertThat(server.command("templates")).isEqualTo("TEMPLATES file:///public/{name}");
        assertThat(server.command("prompts")).isEqualTo("PROMPTS leaky,summarize");
    }

    @Test
    void listsOnlyWhatTheClientPolicyLetsThrough() throws Exception {
        assertThat(client.command("resources")).isEqualTo("RESOURCES file:///public/keys.txt,file:///public/readme.txt");
        assertThat(client.command("templates")).isEqualTo("TEMPLATES file:///public/{name}");
        assertThat(client.command("prompts")).isEqualTo("PROMPTS leaky,summarize");
    }

    @Test
    void deniesAServerResourceReadWithTheSection5TextAndTheHandlerNeverRuns() throws Exception {
        assertThat(server.command("read file:///etc/passwd")).as(server.dump()).startsWith(error())
                .endsWith("Policy denied resource 'file:///etc/passwd': system files are off limits [rule /resources/file:~1~1~1etc~1*]");
        // a traversal is normalized before matching: it is the same file, under the same rule
        assertThat(server.command("read file:///public/%2e%2e/etc/passwd")).startsWith(error())
                .endsWith(": system files are off limits [rule /resources/file:~1~1~1etc~1*]");
        assertThat(server.command("read file:///var/log/syslog")).startsWith(error())
                .contains("Policy denied resource 'file:///var/log/syslog'");
        server.sync();
        assertThat(server.serverLog()).noneMatch(line -> line.startsWith("RESOURCE READ") && !line.contains("/public/"));
        assertThat(server.serverLog()).filteredOn(line -> line.contains("decision=DENY kind=resource uri=file:///etc/passwd side=server"))
                .as(server.dump()).hasSize(1).allMatch(line -> line.contains("rule=/resources/file:~1~1~1etc~1*"));
        assertThat(server.serverLog()).filteredOn(line -> line.contains("decision=DENY kind=resource uri=file:///public/%2e%2e/etc/passwd"))
                .hasSize(1);
    }

    @Test
    void redactsAPlantedKeyInAResourceAndLogsWhatItRedactedNeverTheKey() throws Exception {
        assertThat(server.command("read file:///public/keys.txt")).isEqualTo("CONTENTS deploy key id=[REDACTED:aws-access-token] ok");
        assertThat(server.command("read file:///public/readme.txt")).isEqualTo("CONTENTS public readme");
        server.sync();
        List<String> lines = decisions(server.serverLog(), "kind=resource uri=file:///public/keys.txt");
        assertThat(lines).as(server.dump()).hasSize(1);
        assertThat(lines.get(0)).contains("decision=ALLOW", "rule=/resources/file:~1~1~1public~1*", "redacted=aws-access-token:1")
                .doesNotContain(AWS_KEY);
        assertThat(decisions(server.serverLog(), "kind=resource uri=file:///public/readme.txt")).hasSize(1)
                .noneMatch(line -> line.contains("redacted="));
        assertThat(server.serverLog()).noneMatch(line -> line.contains(AWS_KEY) && line.contains("mcp-policy"));
    }

    @Test
    void decidesPromptsOnTheirArgumentsAndRedactsTheirMessages() throws Exception {
        assertThat(server.command("prompt summarize {\"style\":\"short\"}")).isEqualTo("MESSAGES Summarize in a short style.");
        assertThat(server.command("prompt summarize {\"style\":\"weird\"}")).startsWith(error())
                .contains("Policy denied prompt 'summarize': ").endsWith("[rule /prompts/summarize/require/0]");
        // not a string: decided like any other value, and denied
        assertThat(server.command("prompt summarize {\"style\":5}")).startsWith(error())
                .contains("Policy denied prompt 'summarize': ");
        assertThat(server.command("prompt leaky {}")).isEqualTo("MESSAGES Use the token [REDACTED:github-pat] to log in.");
        assertThat(server.command("prompt forbidden {}")).startsWith(error())
                .endsWith("Policy denied prompt 'forbidden': not for agents [rule /prompts/forbidden]");
        server.sync();
        assertThat(server.serverLog()).filteredOn(line -> line.startsWith("PROMPT GOT ")).extracting(line -> line.split(" ")[2])
                .containsExactly("summarize", "leaky");
        assertThat(decisions(server.serverLog(), "kind=prompt prompt=leaky")).hasSize(1)
                .allMatch(line -> line.contains("redacted=github-pat:1") && !line.contains(GITHUB_TOKEN));
        assertThat(decisions(server.serverLog(), "kind=prompt prompt=summarize")).hasSize(3);
    }

    @Test
    void judgesToolResultsRedactingKeysAndRefusingOversizedOnes() throws Exception {
        assertThat(server.call("cat", "{\"path\":\"file:///public/keys.txt\"}"))
                .isEqualTo("RESULT isError=false text=deploy key id=[REDACTED:aws-access-token] ok");
        assertThat(server.call("big", "{\"size\":100}")).isEqualTo("RESULT isError=false text=" + "x".repeat(100));
        // 10 MB on one line: the handler made it, the judge refused it by its length, only the denial travels
        assertThat(server.call("big", "{\"size\":10485760}")).as(server.dump())
                .startsWith("RESULT isError=true text=Policy denied tool 'big': ").endsWith("[rule /tools/big/result/max_bytes]");
        server.sync();
        assertThat(decisions(server.serverLog(), "tool=cat side=server")).hasSize(1).allMatch(line -> line.contains("redacted=aws-access-token:1"));
        List<String> big = decisions(server.serverLog(), "tool=big side=server");
        assertThat(big).as(server.dump()).hasSize(2);
        assertThat(big.get(0)).contains("decision=ALLOW").doesNotContain("redacted=");
        assertThat(big.get(1)).contains("decision=DENY", "rule=/tools/big/result/max_bytes");
    }

    @Test
    void theClientJudgesWhatItAsksAndWhatItGetsBack() throws Exception {
        assertThat(client.command("read file:///etc/passwd")).as(client.dump()).startsWith(error())
                .endsWith("Policy denied resource 'file:///etc/passwd': system files are off limits "
                        + "[rule /servers/fixture-server/resources/file:~1~1~1etc~1*]");
        assertThat(client.command("prompt forbidden {}")).startsWith(error()).contains("Policy denied prompt 'forbidden'");
        assertThat(client.command("prompt leaky {}")).isEqualTo("MESSAGES Use the token [REDACTED:github-pat] to log in.");
        assertThat(client.call("cat", "{\"path\":\"file:///public/keys.txt\"}"))
                .isEqualTo("RESULT isError=false text=deploy key id=[REDACTED:aws-access-token] ok");
        // the server sends the file; the client's deny_if on the result refuses it before the app sees it
        assertThat(client.call("cat", "{\"path\":\"file:///etc/passwd\"}")).startsWith("RESULT isError=true text=Policy denied tool 'cat': ")
                .endsWith("[rule /servers/fixture-server/tools/cat/result/deny_if/0]");
        client.sync();
        // a denied read is never sent: the server never saw it
        assertThat(client.serverLog()).noneMatch(line -> line.startsWith("RESOURCE READ file:///etc/passwd"));
        assertThat(client.serverLog()).noneMatch(line -> line.startsWith("PROMPT GOT forbidden"));
        assertThat(decisions(client.clientLog(), "kind=resource uri=file:///etc/passwd side=client server=fixture-server")).hasSize(1)
                .allMatch(line -> line.contains("decision=DENY"));
        assertThat(decisions(client.clientLog(), "tool=cat side=client")).hasSize(2);
        assertThat(client.clientLog()).noneMatch(line -> line.contains("mcp-policy") && (line.contains(AWS_KEY) || line.contains(GITHUB_TOKEN)));
    }

    /** Last: it reads and gets what the other scenarios count. */
    @Test
    @Order(Integer.MAX_VALUE)
    void answersEachOf200MixedCallsInFlightExactlyOnce() throws Exception {
        String burst = server.command("burst 16 50 echo {\"text\":\"e%d\"};50 read:file:///public/keys.txt {};"
                + "50 prompt:leaky {};50 read:file:///etc/passwd {}");
        assertThat(burst).startsWith("BURST ");
        String[] results = burst.substring("BURST ".length()).split("\t");
        assertThat(results).as(server.dump()).hasSize(200);
        assertThat(results).filteredOn(r -> r.startsWith("RESULT isError=false text=echo: e")).hasSize(50);
        assertThat(results).filteredOn("CONTENTS deploy key id=[REDACTED:aws-access-token] ok"::equals).hasSize(50);
        assertThat(results).filteredOn("MESSAGES Use the token [REDACTED:github-pat] to log in."::equals).hasSize(50);
        assertThat(results).filteredOn(r -> r.startsWith("ERROR ") && r.contains("Policy denied resource 'file:///etc/passwd'")).hasSize(50);
        server.sync();
        List<String> log = server.serverLog();
        assertThat(log).filteredOn(line -> line.startsWith("RESOURCE READ file:///public/keys.txt")).hasSizeGreaterThanOrEqualTo(50);
        assertThat(decisions(log, "kind=resource uri=file:///etc/passwd")).hasSizeGreaterThanOrEqualTo(50);
        assertThat(decisions(log, "kind=prompt prompt=leaky")).hasSizeGreaterThanOrEqualTo(50)
                .allMatch(line -> line.contains("redacted=github-pat:1"));
    }

    /** The decision lines that hold {@code fields}. */
    static List<String> decisions(List<String> log, String fields) {
        return log.stream().filter(line -> line.contains("mcp-policy decision=") && line.contains(fields)).collect(Collectors.toList());
    }
}
