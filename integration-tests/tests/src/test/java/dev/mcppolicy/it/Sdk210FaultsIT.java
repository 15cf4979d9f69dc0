package dev.mcppolicy.it;

/** Injected faults on SDK 2.1.0. */
class Sdk210FaultsIT extends AbstractFaultScenarios {
    @Override
    String sdkVersion() {
        return "2.1.0";
    }
}
