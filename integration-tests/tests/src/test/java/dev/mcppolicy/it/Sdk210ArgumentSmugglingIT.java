package dev.mcppolicy.it;

/**
 * Argument smuggling on SDK 2.1.0, the newest: its tools bind with Jackson 3 (mcp-json-jackson3 over
 * {@code JsonMapper.shared()}, databind 3.1.4), and it checks arguments against the tool's schema itself.
 */
class Sdk210ArgumentSmugglingIT extends AbstractArgumentSmugglingScenarios {
    @Override
    String sdkVersion() {
        return "2.1.0";
    }
}
