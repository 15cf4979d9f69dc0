package dev.mcppolicy.it;

/** Injected faults on SDK 0.10.0. */
class Sdk0100FaultsIT extends AbstractFaultScenarios {
    @Override
    String sdkVersion() {
        return "0.10.0";
    }
}
