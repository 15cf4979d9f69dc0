package dev.mcppolicy.agent.instrumentation;

import dev.mcppolicy.agent.bootstrap.PolicyBridge;
import java.util.List;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * {@code McpStatelessAsyncServer} (SDK 0.11+; stateless sync servers wrap it): the same two handler
 * lambdas as the stateful server, whose first argument is the {@code McpTransportContext}.
 */
public final class McpStatelessAsyncServerInstrumentation implements TypeInstrumentation {
    @Override
    public String typeName() {
        return "io.modelcontextprotocol.server.McpStatelessAsyncServer";
    }

    @Override
    public List<Hook> hooks() {
        return List.of(
                new Hook("tools/call", SdkMatchers.handlerLambda("toolsCallRequestHandler"), CallAdvice.class, 1),
                new Hook("tools/list", SdkMatchers.handlerLambda("toolsListRequestHandler"), ListAdvice.class, 1));
    }

    /** A denial skips the handler lambda and returns the bridge's answer instead. */
    public static class CallAdvice {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        public static Object enter(@Advice.Argument(0) Object transportContext, @Advice.Argument(1) Object params) {
            return PolicyBridge.serverCall(transportContext, params);
        }

        @Advice.OnMethodExit
        public static void exit(@Advice.Enter Object denial,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned) {
            if (denial != null) {
                returned = denial;
            }
        }
    }

    /** The list result is mapped to a copy without hidden and outright-denied tools. */
    public static class ListAdvice {
        @Advice.OnMethodExit
        public static void exit(@Advice.Argument(0) Object transportContext,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned) {
            returned = PolicyBridge.serverList(transportContext, returned);
        }
    }
}
