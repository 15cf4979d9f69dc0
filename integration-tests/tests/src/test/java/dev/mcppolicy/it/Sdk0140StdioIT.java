package dev.mcppolicy.it;

class Sdk0140StdioIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "0.14.0";
    }

    @Override
    String transport() {
        return "stdio";
    }
}
