package dev.mcppolicy.it;

class Sdk200StreamableIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "2.0.0";
    }

    @Override
    String transport() {
        return "streamable";
    }
}
