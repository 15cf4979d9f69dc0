package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** For scenarios whose server runs {@link Policies#serverWithEchoRequire()}: a {@code require} denies, and the handler never runs. */
interface RequireScenario {
    McpPair pair();

    @Test
    default void deniesACallThatBreaksARequireWithoutRunningItsHandler() throws Exception {
        assertThat(pair().call("echo", "{\"text\":\"much longer than twenty characters\"}"))
                .startsWith("RESULT isError=true text=Policy denied tool 'echo': ").endsWith("[rule /tools/echo/require/0]");
        pair().sync();
        assertThat(pair().serverLog()).as(pair().dump())
                .anyMatch(l -> l.contains("decision=DENY tool=echo side=server rule=/tools/echo/require/0"))
                .noneMatch(l -> l.contains("HANDLER RAN echo {text=much longer"));
    }
}
