package dev.mcppolicy.it;

/** Hostile input on SDK 2.1.0. */
class Sdk210HostileInputIT extends AbstractHostileInputScenarios {
    @Override
    String sdkVersion() {
        return "2.1.0";
    }
}
