package dev.mcppolicy.agent.instrumentation;

import java.util.List;

/**
 * {@code McpServerSession}: the session of a stdio or SSE server, SDK 0.10.0 to 2.1.0. No version acts on a
 * client's {@code notifications/cancelled}, and a closed session leaves the answers it still owes waiting;
 * for a call held for approval both must give the approval up (SPEC §6). Its {@code handle(message)} tells
 * the hooks each message on entry (a {@code tools/call}'s request id, a cancel), and {@code close()} and
 * {@code closeGracefully()} tell them the session ended. Neither changes what the session does.
 */
public final class McpServerSessionInstrumentation implements TypeInstrumentation {
    static final String MESSAGE = "Lio/modelcontextprotocol/spec/McpSchema$JSONRPCMessage;";

    private static final Weave HANDLE = Weave.enterUnlessNull("serverMessage", Weave.THIS, 0);
    private static final Weave CLOSE = Weave.onEntry("serverSessionClosed", Weave.THIS);

    /** {@code void close()} and {@code Mono<Void> closeGracefully()}. */
    private static final MethodShape CLOSES = new MethodShape() {
        @Override
        public boolean matches(int access, String name, String descriptor) {
            return (name.equals("close") && descriptor.equals("()V"))
                    || (name.equals("closeGracefully") && descriptor.equals("()" + MethodShape.MONO));
        }
    };

    @Override
    public String internalName() {
        return "io/modelcontextprotocol/spec/McpServerSession";
    }

    @Override
    public List<Hook> hooks() {
        return List.of(
                new Hook("session messages (cancels of held calls)", MethodShape.publicMethod("handle", 1, MESSAGE, MethodShape.MONO),
                        HANDLE, 1, 1),
                new Hook("session close (its held calls)", CLOSES, CLOSE, 2, 2));
    }
}
