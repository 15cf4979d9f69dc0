package dev.mcppolicy.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.policy.Algorithm;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Scope;
import dev.mcppolicy.ratelimit.RateLimitStore;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CounterKeysTest {
    private static ToolCall call(String sessionId, String clientId) {
        return new ToolCall(Side.SERVER, null, "t", Map.of(), sessionId, clientId, null);
    }

    private static Limit limit(String counter, Scope scope) {
        return new Limit(counter, Duration.ofMinutes(1), 1, scope, Algorithm.SLIDING);
    }

    @Test
    void aGlobalLimitHasOneKeyWhoeverCalls() {
        assertThat(CounterKeys.of(Scope.GLOBAL, call("s1", "alice"))).isEqualTo(RateLimitStore.GLOBAL_KEY);
        assertThat(CounterKeys.of(Scope.GLOBAL, call(null, null))).isEqualTo(RateLimitStore.GLOBAL_KEY);
    }

    @Test
    void aSessionLimitIsKeyedBySessionAndAClientLimitByClient() {
        assertThat(CounterKeys.of(Scope.SESSION, call("s1", "alice"))).isEqualTo("s1");
        assertThat(CounterKeys.of(Scope.CLIENT, call("s1", "alice"))).isEqualTo("alice");
    }

    @Test
    void callsWithoutAnIdentityShareOneKey() {
        assertThat(CounterKeys.of(Scope.SESSION, call(null, "alice"))).isEqualTo(CounterKeys.ANONYMOUS);
        assertThat(CounterKeys.of(Scope.CLIENT, call("s1", null))).isEqualTo(CounterKeys.ANONYMOUS);
    }

    @Test
    void aHugeIdIsKeyedByItsHashSoKeysStaySmall() {
        String huge = "c".repeat(10 * 1024 * 1024);
        String key = CounterKeys.of(Scope.CLIENT, call("s", huge));
        assertThat(key).hasSize(72).startsWith("\u0000sha256:");
        assertThat(CounterKeys.of(Scope.CLIENT, call("s", new String(huge.toCharArray())))).as("the same id, the same key").isEqualTo(key);
        assertThat(CounterKeys.of(Scope.CLIENT, call("s", huge.substring(1) + "d"))).isNotEqualTo(key);
        assertThat(CounterKeys.of(Scope.CLIENT, call("s", "c".repeat(300) + "\uD800")))
                .as("lone surrogates hash apart")
                .isNotEqualTo(CounterKeys.of(Scope.CLIENT, call("s", "c".repeat(300) + "\uDC00")));
        assertThat(CounterKeys.of(Scope.CLIENT, call("s", "c".repeat(256)))).isEqualTo("c".repeat(256));
    }

    @Test
    void theKeysOfACallAreComputedOncePerScope() {
        String huge = "c".repeat(1000);
        Limit[] limits = {limit("a", Scope.CLIENT), limit("b", Scope.GLOBAL), limit("c", Scope.SESSION), limit("d", Scope.CLIENT)};

        String[] keys = CounterKeys.of(limits, call("s1", huge));

        assertThat(keys).containsExactly(CounterKeys.identity(huge), RateLimitStore.GLOBAL_KEY, "s1", CounterKeys.identity(huge));
        assertThat(keys[3]).as("the client id was hashed once for both client limits").isSameAs(keys[0]);
    }
}
