package dev.mcppolicy.it;

class Sdk115StreamableIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "1.1.5";
    }

    @Override
    String transport() {
        return "streamable";
    }
}
