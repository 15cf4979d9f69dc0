package dev.mcppolicy.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.status.StartupSummary;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A deferred stack is set up when, and only when, the first class it hooks loads; once, whichever of its classes that is. */
class DeferredStacksTest {
    private record Named(String internalName, List<Hook> hooks) implements TypeInstrumentation {
    }

    @Test
    void setsAStackUpOnceOnTheFirstOfItsClasses() throws IOException {
        List<String> loaded = new ArrayList<>();
        HookTransformer transformer = new HookTransformer(List.of(), Map.of("stack/One", "s", "stack/Two", "s", "other/Three", "t"),
                stack -> {
                    loaded.add(stack);
                    return "s".equals(stack) ? List.of(new Named("stack/One", List.of()), new Named("stack/Two", List.of()))
                            : List.of(new Named("other/Three", List.of()));
                }, new StartupSummary());
        byte[] bytes = bytesOf(DeferredStacksTest.class);

        assertThat(transformer.transform(null, null, "app/Unrelated", null, null, bytes)).isNull();
        assertThat(loaded).as("no stack for a class none hooks").isEmpty();
        transformer.transform(null, null, "stack/Two", null, null, bytes);
        transformer.transform(null, null, "stack/One", null, null, bytes);
        transformer.transform(null, null, "stack/Two", null, null, bytes);
        assertThat(loaded).containsExactly("s");
        transformer.transform(null, null, "other/Three", null, null, bytes);
        assertThat(loaded).containsExactly("s", "t");
    }

    @Test
    void knowsEachDeferredStack() {
        for (String stack : Map.copyOf(HookInstaller.DEFERRED).values()) {
            assertThat(HookInstaller.instrumentations(stack)).isNotEmpty();
        }
    }

    private static byte[] bytesOf(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            return in.readAllBytes();
        }
    }
}
