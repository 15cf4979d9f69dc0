package dev.mcppolicy.it;

/** SDK 2.2.0's classic API (the one of 0.10 - 2.1) over stdio: it keeps working beside the modern one. */
class Sdk220StdioIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "2.2.0";
    }

    @Override
    String transport() {
        return "stdio";
    }
}
