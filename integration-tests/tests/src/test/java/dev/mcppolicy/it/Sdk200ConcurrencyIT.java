package dev.mcppolicy.it;

import org.junit.jupiter.api.Test;

/** Many calls in flight at once on SDK 2.0.0, stdio and streamable HTTP. */
class Sdk200ConcurrencyIT extends AbstractConcurrencyScenarios {
    @Override
    String sdkVersion() {
        return "2.0.0";
    }

    @Test
    void answersEveryConcurrentCallExactlyOnceOverStreamableHttp() throws Exception {
        serverOverStreamableHttp();
    }
}
