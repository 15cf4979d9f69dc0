package dev.mcppolicy.it;

/** SDK 0.14.0 over stdio with an async server (async tool handlers) and an async client: no sync facade involved. */
class Sdk0140AsyncStdioIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "0.14.0";
    }

    @Override
    String transport() {
        return "stdio";
    }

    @Override
    boolean async() {
        return true;
    }
}
