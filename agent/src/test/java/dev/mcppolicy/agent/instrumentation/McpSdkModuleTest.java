package dev.mcppolicy.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.HookedTypes;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import org.junit.jupiter.api.Test;

class McpSdkModuleTest {
    @Test
    void premainFilterKnowsEveryHookedType() {
        Set<String> declared = new TreeSet<>();
        for (TypeInstrumentation instrumentation : McpSdkModule.instrumentations()) {
            declared.add(instrumentation.typeName().replace('.', '/'));
        }
        assertThat(declared).isEqualTo(new TreeSet<>(HookedTypes.INTERNAL_NAMES));
    }

    @Test
    void handlerLambdaMatcherWantsTheWholeShapeNotJustTheName() {
        ElementMatcher<? super MethodDescription> matcher = SdkMatchers.handlerLambda("toolsCallRequestHandler");
        TypeDescription shape = TypeDescription.ForLoadedType.of(LambdaShapes.class);
        // javac names both lambdas below lambda$toolsCallRequestHandler$N, as in the SDK; neither returns a
        // Mono, so neither may be taken for the dispatch point
        assertThat(shape.getDeclaredMethods().filter(matcher::matches).size()).isZero();
        assertThat(shape.getDeclaredMethods().filter(m -> m.getName().startsWith("lambda$toolsCallRequestHandler$"))
                .size()).isEqualTo(2);
    }

    /** Has the names but not the return type (no Reactor here): the matcher must find nothing rather than guess. */
    static final class LambdaShapes {
        BiFunction<Object, Object, Object> toolsCallRequestHandler() {
            return (exchange, params) -> {
                BiFunction<String, Integer, String> inner = (a, b) -> a + b;
                return inner.apply(String.valueOf(params), 1);
            };
        }
    }
}
