package dev.mcppolicy.it;

/** The SDK 2.2 modern API over HTTP (HttpServletMcpTransport, HttpClientMcpTransport), sync client. */
class Sdk220ModernHttpIT extends AbstractModernToolCallScenarios {
    @Override
    String transport() {
        return "http";
    }

}
