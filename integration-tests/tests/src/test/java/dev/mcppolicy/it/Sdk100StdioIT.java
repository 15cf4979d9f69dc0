package dev.mcppolicy.it;

class Sdk100StdioIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "1.0.0";
    }

    @Override
    String transport() {
        return "stdio";
    }
}
