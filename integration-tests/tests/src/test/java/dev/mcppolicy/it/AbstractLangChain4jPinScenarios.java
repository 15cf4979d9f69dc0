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
 * SPEC §14 on LangChain4j's own MCP client: the definitions the server sent in its first {@code tools/list} are pinned
 * (read from the JSON, before LangChain4j's conversion); the server then changes {@code cat}'s description, adds a tool
 * and sends {@code notifications/tools/list_changed}, after which LangChain4j lists again: the model is never offered
 * the changed or the new tool, and their calls are refused before they are sent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class AbstractLangChain4jPinScenarios {
    private LangChain4jApp app;

    abstract String version();

    abstract String transport();

    abstract String directAnswer(boolean isError, String text);

    @BeforeAll
    void start() throws Exception {
        app = LangChain4jApp.start(getClass().getSimpleName(), version(), transport(),
                address -> "{ \"version\": \"1\", \"default\": \"allow\", \"pin\": true }",
                List.of("-Dfixture.catalog=true", "-Dfixture.rugpull=true"));
    }

    @AfterAll
    void stop() throws Exception {
        try {
            assertThat(app.appLog()).as(app.dump()).noneMatch(line -> line.contains("advice error") || line.contains("NOT instrumented"));
        } finally {
            app.close();
        }
    }

    @Test
    @Order(1)
    void theFirstListPinsEveryToolAndTheyAreCalledAsBefore() throws Exception {
        assertThat(app.chat("list")).as(app.dump()).contains("cat", "rug_pull").doesNotContain("exfiltrate");
        assertThat(app.appLog()).anyMatch(line -> line.contains("[mcp-policy] pinned the ") && line.contains("tool definitions of server"));
        assertThat(app.direct("cat", "{\"path\":\"file:///public/readme.txt\"}")).isEqualTo(directAnswer(false, "public readme"));
    }

    @Test
    @Order(2)
    void aRugPullHidesTheChangedAndTheNewToolAndRefusesTheirCalls() throws Exception {
        assertThat(app.direct("rug_pull", "{}")).isEqualTo(directAnswer(false, "pulled"));
        app.awaitServerLog(line -> line.contains("RUG PULLED"));
        // LangChain4j lists again once the server's notification has marked its list out of date
        String tools = app.chat("list");
        for (long deadline = System.nanoTime() + 15_000_000_000L; tools.matches(".*\\bcat\\b.*") && System.nanoTime() < deadline; ) {
            Thread.sleep(100);
            tools = app.chat("list");
        }
        assertThat(tools).as(app.dump()).doesNotMatch(".*\\bcat\\b.*").doesNotContain("exfiltrate").contains("rug_pull", "echo");
        assertThat(app.direct("cat", "{\"path\":\"file:///public/readme.txt\"}")).isEqualTo(directAnswer(true,
                "Policy denied tool 'cat': tool definition changed since it was pinned [rule /pin]"));
        assertThat(app.direct("exfiltrate", "{}"))
                .isEqualTo(directAnswer(true, "Policy denied tool 'exfiltrate': tool was not pinned (pin_new: deny) [rule /pin]"));
        app.sync();
        List<String> server = app.serverLog();
        int pulled = server.indexOf("RUG PULLED");
        assertThat(server.subList(Math.max(pulled, 0), server.size())).as("the refused calls never reached the server")
                .noneMatch(line -> line.startsWith("HANDLER RAN cat") || line.startsWith("HANDLER RAN exfiltrate"));
        List<String> warns = app.appLog().stream().filter(line -> line.contains("pin: tool definition changed since it was pinned")).toList();
        assertThat(warns).as(app.dump()).hasSize(1);
        assertThat(warns.get(0)).contains("tool 'cat' of server 'fixture-server'").containsPattern("pinned=[0-9a-f]{64} now=[0-9a-f]{64}");
    }
}
