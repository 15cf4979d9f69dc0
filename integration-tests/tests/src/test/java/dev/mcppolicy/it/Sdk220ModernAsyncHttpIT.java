package dev.mcppolicy.it;

/** The SDK 2.2 modern API over HTTP, through its async client (McpAsyncClient: ToolSpec.call() returns a Mono). */
class Sdk220ModernAsyncHttpIT extends AbstractModernToolCallScenarios {
    @Override
    String transport() {
        return "http";
    }

    @Override
    boolean async() {
        return true;
    }
}
