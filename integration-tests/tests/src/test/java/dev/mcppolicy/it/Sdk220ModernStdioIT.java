package dev.mcppolicy.it;

/** The SDK 2.2 modern API over stdio (StdioMcpTransport, StdioMcpClientTransport), sync client. */
class Sdk220ModernStdioIT extends AbstractModernToolCallScenarios {
    @Override
    String transport() {
        return "stdio";
    }

}
