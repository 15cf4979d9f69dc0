package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * SPEC §13, issue 31 item 5: a tool answer of 100 MB on one line (no newline) on the oldest and the newest classic SDK
 * server, under a result rule that names no {@code max_bytes}: the default bound (16 MiB) refuses it by its length
 * before anything is copied or scanned, one decision line says so, only the §5 denial travels, and the server goes on
 * answering.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HugeResultIT {
    private static final String POLICY = """
            { "version": "1", "default": "deny", "tools": { "echo": {}, "big": { "result": { "redact": ["secrets"] } } } }
            """;
    private static final int HUNDRED_MB = 100 * 1024 * 1024;

    private McpPair oldest;
    private McpPair newest;

    @BeforeAll
    void start() throws Exception {
        oldest = start("0.10.0");
        newest = start("2.1.0");
    }

    private McpPair start(String sdk) throws Exception {
        return McpPair.start(getClass().getSimpleName() + "-" + sdk, sdk, "stdio", false, POLICY, "{ \"version\": \"1\", \"default\": \"allow\" }",
                "", "", List.of("-Dfixture.catalog=true"), Fixtures.classPath(sdk));
    }

    @AfterAll
    void stop() throws Exception {
        try {
            for (McpPair pair : List.of(oldest, newest)) {
                assertThat(pair.serverLog()).as(pair.dump()).noneMatch(line -> line.contains("advice error") || line.contains("OutOfMemoryError"));
            }
        } finally {
            oldest.close();
            newest.close();
        }
    }

    @Test
    void refusesA100MbAnswerByTheDefaultBoundOnTheOldestSdk() throws Exception {
        refuses(oldest);
    }

    @Test
    void refusesA100MbAnswerByTheDefaultBoundOnTheNewestSdk() throws Exception {
        refuses(newest);
    }

    private static void refuses(McpPair pair) throws Exception {
        String answer = pair.call("big", "{\"size\":" + HUNDRED_MB + "}");
        assertThat(answer).as(pair.dump()).startsWith("RESULT isError=true text=Policy denied tool 'big': ")
                .endsWith("[rule /tools/big/result/max_bytes]").hasSizeLessThan(500);
        // the server is well and answers the next call
        assertThat(pair.call("echo", "{\"text\":\"after\"}")).isEqualTo("RESULT isError=false text=echo: after");
        pair.sync();
        assertThat(pair.serverLog()).filteredOn(line -> line.startsWith("HANDLER RAN big")).hasSize(1);
        List<String> lines = AbstractResourceScenarios.decisions(pair.serverLog(), "tool=big side=server");
        assertThat(lines).as(pair.dump()).hasSize(1);
        assertThat(lines.get(0)).contains("decision=DENY", "rule=/tools/big/result/max_bytes").doesNotContain("redacted=");
        assertThat(pair.serverLog()).allMatch(line -> line.length() < 100_000);
    }
}
