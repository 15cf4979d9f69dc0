package dev.mcppolicy.it;

/** Injected faults on SDK 1.1.5. */
class Sdk115FaultsIT extends AbstractFaultScenarios {
    @Override
    String sdkVersion() {
        return "1.1.5";
    }
}
