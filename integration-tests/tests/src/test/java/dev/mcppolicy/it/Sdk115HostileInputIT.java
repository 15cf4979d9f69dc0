package dev.mcppolicy.it;

/** Hostile input on SDK 1.1.5. */
class Sdk115HostileInputIT extends AbstractHostileInputScenarios {
    @Override
    String sdkVersion() {
        return "1.1.5";
    }
}
