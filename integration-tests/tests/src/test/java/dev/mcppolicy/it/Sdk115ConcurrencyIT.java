package dev.mcppolicy.it;

import org.junit.jupiter.api.Test;

/** Many calls in flight at once on SDK 1.1.5, stdio and streamable HTTP. */
class Sdk115ConcurrencyIT extends AbstractConcurrencyScenarios {
    @Override
    String sdkVersion() {
        return "1.1.5";
    }

    @Test
    void answersEveryConcurrentCallExactlyOnceOverStreamableHttp() throws Exception {
        serverOverStreamableHttp();
    }
}
