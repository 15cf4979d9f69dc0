package dev.mcppolicy.it;

/** SDK 2.1.0 over streamable with an async server (async tool handlers) and an async client: no sync facade involved. */
class Sdk210AsyncStreamableIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "2.1.0";
    }

    @Override
    String transport() {
        return "streamable";
    }

    @Override
    boolean async() {
        return true;
    }
}
