package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * For stacks whose hook decides a call before the server looks its tool up (Quarkus, Kotlin): a call to a tool the
 * server does not have is denied by default like any other, with one decision line.
 */
interface UnknownToolScenario {
    McpPair pair();

    @Test
    default void deniesACallToAToolTheServerDoesNotHaveAsAnyOther() throws Exception {
        assertThat(pair().call("no_such_tool", "{}")).startsWith("RESULT isError=true text=Policy denied tool 'no_such_tool': ")
                .endsWith("[rule (default)]");
        pair().sync();
        assertThat(pair().serverLog()).as(pair().dump()).anyMatch(l -> l.contains("decision=DENY tool=no_such_tool side=server rule=(default)"));
    }
}
