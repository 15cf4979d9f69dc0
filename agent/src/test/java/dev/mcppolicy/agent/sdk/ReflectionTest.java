package dev.mcppolicy.agent.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The method cache: overloads with as many parameters are told apart. */
class ReflectionTest {
    public static final class Overloads {
        public String get(String key) {
            return "string " + key;
        }

        public String get(Integer key) {
            return "integer " + key;
        }
    }

    @Test
    void overloadsWithAsManyParametersDoNotShareACacheEntry() throws Exception {
        Overloads target = new Overloads();

        assertThat(Reflection.method(Overloads.class, "get", String.class).invoke(target, "a")).isEqualTo("string a");
        assertThat(Reflection.method(Overloads.class, "get", Integer.class).invoke(target, 1)).isEqualTo("integer 1");
        assertThat(Reflection.signature("get", String.class, int.class)).isEqualTo("get(java.lang.String,int)");
        assertThat(Reflection.method(Overloads.class, "get", Long.class)).isNull();
    }
}
