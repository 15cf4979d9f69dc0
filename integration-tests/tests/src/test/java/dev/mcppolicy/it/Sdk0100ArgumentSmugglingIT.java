package dev.mcppolicy.it;

/**
 * Argument smuggling on SDK 0.10.0, the oldest: its tools bind with Jackson 2 (a default {@code ObjectMapper};
 * databind 2.21.3 here, the build's Jackson BOM over the SDK's 2.17.0).
 */
class Sdk0100ArgumentSmugglingIT extends AbstractArgumentSmugglingScenarios {
    @Override
    String sdkVersion() {
        return "0.10.0";
    }
}
