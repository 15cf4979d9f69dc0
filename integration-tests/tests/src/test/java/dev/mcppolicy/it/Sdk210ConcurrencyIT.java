package dev.mcppolicy.it;

import org.junit.jupiter.api.Test;

/** Many calls in flight at once on SDK 2.1.0, stdio and streamable HTTP. */
class Sdk210ConcurrencyIT extends AbstractConcurrencyScenarios {
    @Override
    String sdkVersion() {
        return "2.1.0";
    }

    @Test
    void answersEveryConcurrentCallExactlyOnceOverStreamableHttp() throws Exception {
        serverOverStreamableHttp();
    }
}
