package dev.mcppolicy.json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonPointersTest {

    @ParameterizedTest
    @CsvSource({"run_command, run_command", "delete_*, delete_*", "a/b, a~1b", "a~b, a~0b", "~/, ~0~1", "~1, ~01",
        "'', ''", "'a b', 'a b'"})
    void escapesTildeThenSlash(String token, String escaped) {
        assertThat(JsonPointers.escape(token)).isEqualTo(escaped);
    }
}
