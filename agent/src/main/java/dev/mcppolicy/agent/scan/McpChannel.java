package dev.mcppolicy.agent.scan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** One connection to an MCP server that sends requests and notifications and waits for each request's answer. */
interface McpChannel extends AutoCloseable {
    /**
     * Sends the request {@code method} with {@code params} and returns the server's JSON-RPC response
     * to it (an object with {@code result} or {@code error}), before {@code deadline} ({@link System#nanoTime()}).
     */
    JsonNode request(long id, String method, ObjectNode params, long deadline) throws ScanException;

    /** Sends a notification; nothing answers it. */
    void notify(String method, long deadline) throws ScanException;

    /** Called once the server has answered {@code initialize}: the protocol version both sides now speak. */
    default void initialized(String protocolVersion) {
    }

    /** Ends the connection; a child process is always gone when this returns. Never throws. */
    @Override
    void close();
}
