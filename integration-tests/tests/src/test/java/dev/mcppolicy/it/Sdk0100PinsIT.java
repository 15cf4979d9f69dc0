package dev.mcppolicy.it;

/** SPEC §14 on the oldest SDK, 0.10.0, over stdio. */
class Sdk0100PinsIT extends AbstractPinScenarios {
    @Override
    String sdkVersion() {
        return "0.10.0";
    }

    @Override
    String transport() {
        return "stdio";
    }
}
