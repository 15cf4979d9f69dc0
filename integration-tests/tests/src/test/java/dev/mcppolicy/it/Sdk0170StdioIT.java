package dev.mcppolicy.it;

class Sdk0170StdioIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "0.17.0";
    }

    @Override
    String transport() {
        return "stdio";
    }
}
