package dev.mcppolicy.agent.instrumentation;

import dev.mcppolicy.agent.bootstrap.PolicyBridge;
import java.util.List;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * {@code McpAsyncServer}: every stateful server (sync servers wrap it) over stdio, SSE and streamable
 * HTTP, SDK 0.10.0 to 2.1.0. Hooks the {@code tools/call} and {@code tools/list} handler lambdas, so
 * each call is decided exactly once whichever transport or sync/async facade carried it.
 */
public final class McpAsyncServerInstrumentation implements TypeInstrumentation {
    @Override
    public String typeName() {
        return "io.modelcontextprotocol.server.McpAsyncServer";
    }

    @Override
    public List<Hook> hooks() {
        return List.of(
                new Hook("tools/call", SdkMatchers.handlerLambda("toolsCallRequestHandler"), CallAdvice.class, 1),
                new Hook("tools/list", SdkMatchers.handlerLambda("toolsListRequestHandler"), ListAdvice.class, 1));
    }

    /**
     * A denial skips the handler lambda and returns the bridge's answer instead. Argument 0 is the
     * exchange (stateful server) or the transport context (stateless server): typed {@code Object},
     * one advice serves both.
     */
    public static class CallAdvice {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        public static Object enter(@Advice.This(optional = true) Object server,
                @Advice.Argument(0) Object exchangeOrContext, @Advice.Argument(1) Object params) {
            return PolicyBridge.serverCall(server, exchangeOrContext, params);
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
        public static void exit(@Advice.Argument(0) Object exchangeOrContext,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned) {
            returned = PolicyBridge.serverList(exchangeOrContext, returned);
        }
    }
}
