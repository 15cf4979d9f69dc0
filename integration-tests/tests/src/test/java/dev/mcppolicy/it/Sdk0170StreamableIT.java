package dev.mcppolicy.it;

class Sdk0170StreamableIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "0.17.0";
    }

    @Override
    String transport() {
        return "streamable";
    }
}
