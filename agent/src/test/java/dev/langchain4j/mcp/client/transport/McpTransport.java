package dev.langchain4j.mcp.client.transport;

import java.util.concurrent.CompletableFuture;

/** A stand-in of LangChain4j's {@code McpTransport}: {@code initialize(request)}, whose future the client waits on. */
public interface McpTransport {
    CompletableFuture<Object> initialize(Object request);
}
