package dev.mcppolicy.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.isPrivate;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

/** Method matchers shared by the SDK instrumentations. */
final class SdkMatchers {
    static final String MONO = "reactor.core.publisher.Mono";

    private SdkMatchers() {
    }

    /**
     * The body of the request-handler lambda a factory such as {@code toolsCallRequestHandler()}
     * returns: {@code private synthetic Mono lambda$toolsCallRequestHandler$N(exchangeOrContext, Object params)}.
     * The number changes between releases, so it is never matched; the shape selects exactly one
     * method per factory in 0.10.0 to 2.1.0 (inner lambdas take other arguments).
     */
    static ElementMatcher.Junction<MethodDescription> handlerLambda(String factory) {
        return isPrivate().and(isSynthetic()).and(nameStartsWith("lambda$" + factory + "$"))
                .and(takesArguments(2)).and(takesArgument(1, Object.class)).and(returns(named(MONO)));
    }
}
