package dev.mcppolicy.it;

class Sdk200StdioIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "2.0.0";
    }

    @Override
    String transport() {
        return "stdio";
    }
}
