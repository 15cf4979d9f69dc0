package dev.mcppolicy.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.mcppolicy.agent.bootstrap.PolicyBridge;
import java.util.List;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * {@code McpAsyncClient} (sync clients delegate to it), SDK 0.10.0 to 2.1.0: {@code callTool} and the
 * paged {@code listTools(cursor)} / {@code listTools(cursor, meta)} (1.1.5+) that every list goes through.
 */
public final class McpAsyncClientInstrumentation implements TypeInstrumentation {
    @Override
    public String typeName() {
        return "io.modelcontextprotocol.client.McpAsyncClient";
    }

    @Override
    public List<Hook> hooks() {
        return List.of(
                new Hook("callTool", isPublic().and(named("callTool")).and(takesArguments(1))
                        .and(returns(named(SdkMatchers.MONO))), CallToolAdvice.class, 1),
                new Hook("listTools", isPublic().and(named("listTools")).and(takesArgument(0, String.class))
                        .and(returns(named(SdkMatchers.MONO))), ListToolsAdvice.class, 1));
    }

    /** The returned call is wrapped so that the policy decides when it is subscribed; a denied call is never sent. */
    public static class CallToolAdvice {
        @Advice.OnMethodExit
        public static void exit(@Advice.This Object client, @Advice.Argument(0) Object request,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned) {
            returned = PolicyBridge.clientCall(client, request, returned);
        }
    }

    /** Each page of the tool list is mapped to a copy without hidden and outright-denied tools. */
    public static class ListToolsAdvice {
        @Advice.OnMethodExit
        public static void exit(@Advice.This Object client,
                @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned) {
            returned = PolicyBridge.clientList(client, returned);
        }
    }
}
