package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * SPEC §14 against one SDK version and transport: the client pins its server's tool definitions at the first
 * {@code tools/list}; the server then changes {@code cat}'s description, adds a tool and sends
 * {@code notifications/tools/list_changed} (the fixture's {@code rug_pull}). The SDK lists again on its own: the app
 * never sees the changed or the new tool, their calls are denied with the §5 text before they are sent, one WARN
 * carries both hashes, and {@code /api/pins} shows them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class AbstractPinScenarios {
    static final String CLIENT_POLICY = """
            { "version": "1", "default": "allow", "pin": true }
            """;

    private McpPair pair;
    private AdminEndpoint admin;

    abstract String sdkVersion();

    abstract String transport();

    /** The pair: a server offering the catalog and its rug pull ({@code serverJvmArgs}), a client with the agent's {@code clientAgent} options. */
    McpPair startPair(String serverPolicy, String clientPolicy, String clientAgent, List<String> serverJvmArgs) throws Exception {
        return McpPair.start(getClass().getSimpleName(), sdkVersion(), transport(), false, serverPolicy, clientPolicy, "", clientAgent,
                serverJvmArgs, Fixtures.classPath(sdkVersion()));
    }

    /**
     * Whether the server announces the change ({@code notifications/tools/list_changed}) and the SDK lists again on its
     * own; else the app finds the change at its next list.
     */
    boolean announcesChanges() {
        return true;
    }

    @BeforeAll
    void startFixtures() throws Exception {
        pair = startPair("{ \"version\": \"1\", \"default\": \"allow\" }", CLIENT_POLICY, "admin=127.0.0.1:0",
                List.of("-Dfixture.catalog=true", "-Dfixture.rugpull=true"));
        admin = AdminEndpoint.of(pair.clientJvm(), null);
    }

    @AfterAll
    void stop() throws Exception {
        try {
            assertThat(pair.clientLog()).as(pair.dump()).noneMatch(line -> line.contains("advice error") || line.contains("NOT instrumented"));
        } finally {
            pair.close();
        }
    }

    @Test
    @Order(1)
    void theFirstListPinsEveryToolAndTheyAreCalledAsBefore() throws Exception {
        assertThat(pair.list()).as(pair.dump()).contains("cat").contains("rug_pull").doesNotContain("exfiltrate");
        assertThat(pair.clientLog()).anyMatch(line -> line.contains("[mcp-policy] pinned the ")
                && line.contains("tool definitions of server 'fixture-server'"));
        assertThat(pair.call("cat", "{\"path\":\"file:///public/readme.txt\"}")).isEqualTo("RESULT isError=false text=public readme");
    }

    @Test
    @Order(2)
    void aRugPullHidesTheChangedAndTheNewToolAndDeniesTheirCalls() throws Exception {
        assertThat(pair.call("rug_pull", "{}")).isEqualTo("RESULT isError=false text=pulled");
        if (announcesChanges()) {
            // the server's notification: the SDK lists the tools again and hands the app what the agent lets through
            pair.awaitClientLog(line -> line.startsWith("TOOLS CHANGED ") && line.contains("rug_pull"));
            List<String> seen = new ArrayList<>(pair.clientLog());
            assertThat(seen).filteredOn(line -> line.startsWith("TOOLS CHANGED ")).as(pair.dump())
                    .allMatch(line -> !line.matches(".*\\bcat\\b.*") && !line.contains("exfiltrate"));
        } else {
            pair.awaitServerLog(line -> line.contains("RUG PULLED"));
        }
        assertThat(pair.list()).doesNotContain("exfiltrate").doesNotMatch(".*\\bcat\\b.*").contains("rug_pull", "echo");
        assertThat(pair.call("cat", "{\"path\":\"file:///public/readme.txt\"}"))
                .isEqualTo("RESULT isError=true text=Policy denied tool 'cat': tool definition changed since it was pinned [rule /pin]");
        assertThat(pair.call("exfiltrate", "{}"))
                .isEqualTo("RESULT isError=true text=Policy denied tool 'exfiltrate': tool was not pinned (pin_new: deny) [rule /pin]");
        pair.sync();
        assertThat(pair.serverLog()).as("the denied calls never reached the server").noneMatch(line -> line.startsWith("HANDLER RAN cat")
                && pair.serverLog().indexOf(line) > pair.serverLog().indexOf("RUG PULLED"));
        List<String> warns = pair.clientLog().stream().filter(line -> line.contains("pin: tool definition changed since it was pinned")).toList();
        assertThat(warns).as(pair.dump()).hasSize(1);
        assertThat(warns.get(0)).contains("tool 'cat' of server 'fixture-server'").containsPattern("pinned=[0-9a-f]{64} now=[0-9a-f]{64}");
        assertThat(pair.clientLog()).filteredOn(line -> line.contains("decision=DENY tool=cat side=client"))
                .hasSize(1).allMatch(line -> line.contains("rule=/pin ") && line.contains("reason=\"tool definition changed since it was pinned\""));
    }

    @Test
    @Order(3)
    void theAdminApiShowsPinnedChangedAndNewTools() throws Exception {
        JsonNode pins = admin.json("/api/pins");
        assertThat(pins.path("pinning").asBoolean()).isTrue();
        JsonNode server = pins.path("servers").get(0);
        assertThat(server.path("server").asText()).isEqualTo("fixture-server");
        assertThat(server.path("source").asText()).isEqualTo("first list");
        List<String> states = new ArrayList<>();
        for (JsonNode tool : server.path("tools")) {
            states.add(tool.path("tool").asText() + "=" + tool.path("state").asText());
            if (tool.path("tool").asText().equals("cat")) {
                assertThat(tool.path("pinned").asText()).isNotEqualTo(tool.path("listed").asText()).hasSize(64);
            }
        }
        assertThat(states).contains("cat=changed", "exfiltrate=new", "rug_pull=pinned", "echo=pinned");
    }
}
