package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * SPEC §12–§13 on LangChain4j's own MCP client ({@code DefaultMcpClient}): its {@code readResource}, {@code getPrompt}
 * and resource, template and prompt lists decided and filtered, and the answers of reads, gets and tool calls judged
 * (planted secrets redacted, a system file's text and an oversized result refused), against the SDK 2.1.0 fixture
 * server offering the catalog (which has no agent: the only policing is the client's).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class AbstractLangChain4jResourceScenarios {
    static final String POLICY = """
            {
              "version": "1",
              "default": "allow",
              "tools": {
                "cat": { "result": { "redact": ["secrets"], "deny_if": [ { "op": "contains", "value": "root:x:0" } ] } },
                "big": { "result": { "max_bytes": 4096 } }
              },
              "resources": {
                "file:///public/*": { "result": { "redact": ["secrets"] } },
                "file:///etc/*": { "action": "deny", "reason": "system files are off limits" }
              },
              "prompts": {
                "leaky": { "result": { "redact": ["secrets"] } },
                "forbidden": { "action": "deny", "reason": "not for agents" }
              }
            }
            """;

    private LangChain4jApp app;

    /** The fixture module's version: {@code 1.0.0}, {@code 1.18.1}, ... */
    abstract String version();

    abstract String transport();

    /** {@code executeTool}'s answer to a direct call: 1.0 returns the text, later versions a {@code ToolExecutionResult}. */
    abstract String directAnswer(boolean isError, String text);

    @BeforeAll
    void start() throws Exception {
        app = LangChain4jApp.start(getClass().getSimpleName(), version(), transport(), address -> POLICY,
                List.of("-Dfixture.catalog=true"));
    }

    @AfterAll
    void stop() throws Exception {
        try {
            assertThat(app.appLog()).as(app.dump()).noneMatch(line -> line.contains("advice error") || line.contains("NOT instrumented")
                    || line.contains("NOT policed") || line.contains("MORE than expected"));
            assertThat(app.appLog()).as("no secret in the agent's lines")
                    .noneMatch(line -> line.contains("mcp-policy") && (line.contains(AbstractResourceScenarios.AWS_KEY)
                            || line.contains(AbstractResourceScenarios.GITHUB_TOKEN)));
        } finally {
            app.close();
        }
    }

    @Test
    void hooksTheReadsGetsAndLists() throws Exception {
        app.sync();
        assertThat(app.appLog()).as(app.dump()).anyMatch(line -> line.matches("\\[mcp-policy] instrumented dev\\.langchain4j\\.mcp\\.client"
                + "\\.DefaultMcpClient .*readResource.*getPrompt.*resource and prompt lists.*"));
    }

    @Test
    void listsOnlyWhatThePolicyLetsThrough() throws Exception {
        assertThat(app.command("resources")).isEqualTo("RESOURCES file:///public/keys.txt,file:///public/readme.txt");
        assertThat(app.command("templates")).isEqualTo("TEMPLATES file:///public/{name}");
        assertThat(app.command("prompts")).isEqualTo("PROMPTS leaky,summarize");
    }

    @Test
    void deniesAReadBeforeItIsSentAndRedactsAnother() throws Exception {
        assertThat(app.command("read file:///etc/passwd")).as(app.dump()).startsWith("ERROR McpException: ")
                .contains("-32602").endsWith("Policy denied resource 'file:///etc/passwd': system files are off limits "
                        + "[rule /resources/file:~1~1~1etc~1*]");
        // a traversal is normalized before matching: it is the same file, under the same rule
        assertThat(app.command("read file:///public/%2e%2e/etc/passwd")).startsWith("ERROR McpException: ")
                .endsWith(": system files are off limits [rule /resources/file:~1~1~1etc~1*]");
        assertThat(app.command("read file:///public/keys.txt")).isEqualTo("CONTENTS deploy key id=[REDACTED:aws-access-token] ok");
        assertThat(app.command("read file:///public/readme.txt")).isEqualTo("CONTENTS public readme");
        app.sync();
        assertThat(app.serverLog()).as("a denied read never reaches the server").noneMatch(line -> line.startsWith("RESOURCE READ")
                && !line.contains("/public/keys.txt") && !line.contains("/public/readme.txt"));
        assertThat(AbstractResourceScenarios.decisions(app.appLog(), "kind=resource uri=file:///etc/passwd side=client")).hasSize(1)
                .allMatch(line -> line.contains("decision=DENY"));
        assertThat(AbstractResourceScenarios.decisions(app.appLog(), "kind=resource uri=file:///public/keys.txt side=client"))
                .hasSize(1).allMatch(line -> line.contains("decision=ALLOW") && line.contains("redacted=aws-access-token:1"));
    }

    @Test
    void decidesPromptsAndRedactsTheirMessages() throws Exception {
        assertThat(app.command("prompt summarize {\"style\":\"short\"}")).isEqualTo("MESSAGES Summarize in a short style.");
        assertThat(app.command("prompt leaky {}")).isEqualTo("MESSAGES Use the token [REDACTED:github-pat] to log in.");
        assertThat(app.command("prompt forbidden {}")).startsWith("ERROR McpException: ")
                .endsWith("Policy denied prompt 'forbidden': not for agents [rule /prompts/forbidden]");
        app.sync();
        assertThat(app.serverLog()).filteredOn(line -> line.startsWith("PROMPT GOT ")).extracting(line -> line.split(" ")[2])
                .doesNotContain("forbidden");
        assertThat(AbstractResourceScenarios.decisions(app.appLog(), "kind=prompt prompt=leaky side=client")).hasSize(1)
                .allMatch(line -> line.contains("redacted=github-pat:1"));
    }

    @Test
    void judgesToolAnswersRedactingKeysAndRefusingWhatTheRuleDenies() throws Exception {
        assertThat(app.direct("cat", "{\"path\":\"file:///public/keys.txt\"}"))
                .isEqualTo(directAnswer(false, "deploy key id=[REDACTED:aws-access-token] ok"));
        // the server sends the file; the client's deny_if on the result refuses it before the app (or its model) sees it
        assertThat(app.direct("cat", "{\"path\":\"file:///etc/passwd\"}")).startsWith(directAnswer(true, "Policy denied tool 'cat': "))
                .endsWith("[rule /tools/cat/result/deny_if/0]");
        assertThat(app.direct("big", "{\"size\":1048576}")).startsWith(directAnswer(true, "Policy denied tool 'big': "))
                .endsWith("[rule /tools/big/result/max_bytes]");
        // through the AI service: the model is handed the redacted text
        assertThat(app.chat("call cat {\"path\":\"file:///public/keys.txt\"}")).isEqualTo("TOOL cat SAID deploy key id=[REDACTED:aws-access-token] ok");
        app.sync();
        assertThat(AbstractResourceScenarios.decisions(app.appLog(), "tool=cat side=client")).hasSize(3);
        assertThat(AbstractResourceScenarios.decisions(app.appLog(), "tool=big side=client")).hasSize(1)
                .allMatch(line -> line.contains("decision=DENY") && line.contains("rule=/tools/big/result/max_bytes"));
    }

    /** Last: it counts what the others read. */
    @Test
    @Order(Integer.MAX_VALUE)
    void answersEachOfManyReadsAndGetsInFlightAsExpected() throws Exception {
        assertThat(app.command("mixed 16 150")).as(app.dump()).isEqualTo("MIXED answered=150 expected=150");
    }
}
