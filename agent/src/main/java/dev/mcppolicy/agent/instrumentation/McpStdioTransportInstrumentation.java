package dev.mcppolicy.agent.instrumentation;

import java.util.List;

/**
 * The SDK's stdio transports before 2.1.0 (server session transport and client transport): their
 * {@code sendMessage} puts each outgoing message on a unicast Reactor sink with {@code tryEmitNext},
 * which fails with {@code FAIL_NON_SERIALIZED} when two threads emit at once, and the message is lost
 * (java-sdk issues 304 and 686; on the server a lost answer also ends the session). A denial answered
 * on the inbound thread while a tool's answer is emitted on a worker makes that likely. Here that one
 * call goes through {@code PolicyBridge.emitSerialized}, which emits as 2.1.0 does: serialized, retried
 * instead of dropped. 2.1.0 emits with {@code emitNext(..., busyLooping(...))}, has no such call site and
 * is left as it is. Turned off by {@code serialize_stdio=false}.
 */
public record McpStdioTransportInstrumentation(String internalName) implements TypeInstrumentation {
    /** The transports, each hooked the same way. */
    public static final List<String> TRANSPORTS = List.of(
            "io/modelcontextprotocol/server/transport/StdioServerTransportProvider$StdioMcpSessionTransport",
            "io/modelcontextprotocol/client/transport/StdioClientTransport");

    private static final Weave EMIT = Weave.replaceCall("reactor/core/publisher/Sinks$Many", "tryEmitNext", "emitSerialized");

    /** {@code sendMessage} itself (client), or the lambda it defers the emission to (server). */
    private static final MethodShape SEND_MESSAGE = new MethodShape() {
        @Override
        public boolean matches(int access, String name, String descriptor) {
            return name.equals("sendMessage") || name.startsWith("lambda$sendMessage$");
        }
    };


    @Override
    public List<Hook> hooks() {
        return List.of(new Hook("serialized stdio sends", SEND_MESSAGE, EMIT, 0));
    }
}
