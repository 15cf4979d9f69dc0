package dev.mcppolicy.it;

/** SPEC §14 on SDK 2.1.0 over streamable HTTP. */
class Sdk210PinsIT extends AbstractPinScenarios {
    @Override
    String sdkVersion() {
        return "2.1.0";
    }

    @Override
    String transport() {
        return "streamable";
    }
}
