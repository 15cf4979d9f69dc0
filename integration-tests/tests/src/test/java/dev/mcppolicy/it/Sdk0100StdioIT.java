package dev.mcppolicy.it;

class Sdk0100StdioIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "0.10.0";
    }

    @Override
    String transport() {
        return "stdio";
    }
}
