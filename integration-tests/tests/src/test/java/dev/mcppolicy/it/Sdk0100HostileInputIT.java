package dev.mcppolicy.it;

/** Hostile input on SDK 0.10.0. */
class Sdk0100HostileInputIT extends AbstractHostileInputScenarios {
    @Override
    String sdkVersion() {
        return "0.10.0";
    }
}
