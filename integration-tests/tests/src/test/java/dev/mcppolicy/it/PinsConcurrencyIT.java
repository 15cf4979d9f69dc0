package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * SPEC §14 under load, on the oldest and the newest classic SDK client over stdio: the server's rug pull comes while
 * 300 calls are in flight (150 of the tool it changes), so the SDK lists again, the pins judge the new list and calls
 * are decided, all at once. Every answer comes exactly once, each call of the changed tool either ran (decided before
 * the client heard of the change), or was refused with the §5 text without reaching the server (or, sent while the
 * server swapped the tool, got the server's own "not found"), one WARN carries the hashes, and once the list is in,
 * the tool stays refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PinsConcurrencyIT {
    private static final String REFUSED = "RESULT isError=true text=Policy denied tool 'cat': tool definition changed since it was pinned [rule /pin]";
    private static final String READ = "RESULT isError=false text=public readme";

    /**
     * The server's own answer for a call that reaches it while it swaps {@code cat} (the fixture removes, then adds it):
     * SDK 0.10 "Tool not found: cat", 2.1 "Unknown tool: invalid_tool_name" (its error names no tool). Only {@code cat}
     * is ever missing, so an "unknown tool" answer in the burst is one of its calls.
     */
    private static boolean gone(String answer) {
        return answer.equals("ERROR McpError: Tool not found: cat") || answer.startsWith("ERROR McpError: Unknown tool: ");
    }

    private McpPair oldest;
    private McpPair newest;

    @BeforeAll
    void start() throws Exception {
        oldest = start("0.10.0");
        newest = start("2.1.0");
    }

    private McpPair start(String sdk) throws Exception {
        return McpPair.start(getClass().getSimpleName() + "-" + sdk, sdk, "stdio", false, "{ \"version\": \"1\", \"default\": \"allow\" }",
                AbstractPinScenarios.CLIENT_POLICY, "", "", List.of("-Dfixture.catalog=true", "-Dfixture.rugpull=true"),
                Fixtures.classPath(sdk));
    }

    @AfterAll
    void stop() throws Exception {
        try {
            for (McpPair pair : List.of(oldest, newest)) {
                assertThat(pair.clientLog()).as(pair.dump()).noneMatch(line -> line.contains("advice error"));
            }
        } finally {
            oldest.close();
            newest.close();
        }
    }

    @Test
    void aRugPullAmid300CallsInFlightOnTheOldestSdk() throws Exception {
        rugPullUnderLoad(oldest);
    }

    @Test
    void aRugPullAmid300CallsInFlightOnTheNewestSdk() throws Exception {
        rugPullUnderLoad(newest);
    }

    private static void rugPullUnderLoad(McpPair pair) throws Exception {
        assertThat(pair.list()).as(pair.dump()).contains("cat", "rug_pull");
        String burst = pair.command("burst 16 150 cat {\"path\":\"file:///public/readme.txt\"};1 rug_pull {};149 echo {\"text\":\"e%d\"}");
        assertThat(burst).startsWith("BURST ");
        List<String> results = List.of(burst.substring("BURST ".length()).split("\t"));
        assertThat(results).as(pair.dump()).hasSize(300);
        assertThat(results).as("answers that are none of the expected ones\n%s", pair.dump()).filteredOn(r -> !r.equals(READ)
                && !r.equals(REFUSED) && !gone(r) && !r.startsWith("RESULT isError=false text=echo: e") && !r.equals("RESULT isError=false text=pulled"))
                .isEmpty();
        assertThat(results).filteredOn(r -> r.startsWith("RESULT isError=false text=echo: e")).hasSize(149);
        assertThat(results).filteredOn("RESULT isError=false text=pulled"::equals).hasSize(1);
        List<String> cats = results.stream().filter(r -> r.equals(READ) || r.equals(REFUSED) || gone(r)).toList();
        assertThat(cats).as("every cat call answered once: ran, refused, or not found by the server amid its swap").hasSize(150);
        long ran = cats.stream().filter(READ::equals).count();

        pair.awaitClientLog(line -> line.startsWith("TOOLS CHANGED ") && line.contains("rug_pull"));
        assertThat(pair.call("cat", "{\"path\":\"file:///public/readme.txt\"}")).isEqualTo(REFUSED);
        pair.sync();
        // a refused call never reached the server: it ran the ones the client let through, no more
        assertThat(pair.serverLog()).filteredOn(line -> line.startsWith("HANDLER RAN cat")).as(pair.dump()).hasSize((int) ran);
        assertThat(AbstractResourceScenarios.decisions(pair.clientLog(), "tool=cat side=client")).hasSize(151);
        // and the burst's 149 echo calls, and the one sync() makes
        assertThat(AbstractResourceScenarios.decisions(pair.clientLog(), "tool=echo side=client")).hasSize(150);
        assertThat(pair.clientLog()).filteredOn(line -> line.contains("pin: tool definition changed since it was pinned")).hasSize(1);
    }
}
