package dev.mcppolicy.it;

/** Many calls in flight at once on SDK 0.10.0 (stdio only: 0.10 has no streamable HTTP). */
class Sdk0100ConcurrencyIT extends AbstractConcurrencyScenarios {
    @Override
    String sdkVersion() {
        return "0.10.0";
    }
}
