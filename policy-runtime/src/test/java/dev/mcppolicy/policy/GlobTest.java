package dev.mcppolicy.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GlobTest {

    @Test
    void tellsGlobsFromExactNames() {
        assertThat(Glob.isGlob("delete_*")).isTrue();
        assertThat(Glob.isGlob("get_?")).isTrue();
        assertThat(Glob.isGlob("*")).isTrue();
        assertThat(Glob.isGlob("read_file")).isFalse();
        assertThat(Glob.isGlob("")).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"delete_*, delete_", "get_?_x*, get_", "a*b?c, a", "*, ''", "?x, ''", "exact, exact"})
    void takesTheLiteralPrefixUpToTheFirstWildcard(String pattern, String prefix) {
        assertThat(Glob.literalPrefix(pattern)).isEqualTo(prefix);
    }

    @ParameterizedTest
    @CsvSource({
        "*, anything", "*, ''", "delete_*, delete_", "delete_*, delete_account", "get_?, get_a", "*_file, read_file",
        "a*b*c, abc", "a*b*c, aXXbYYc", "a*b*c, abcbc", "*a, aaaa", "a**b, ab", "?*, x", "exact, exact",
        "a*a*a*a*a*b, aaaaaaaaaaaaaaaaaaaaaaaaaab",
    })
    void matches(String pattern, String name) {
        assertThat(Glob.matches(pattern, name)).isTrue();
    }

    @ParameterizedTest
    @CsvSource({
        "delete_*, undelete_x", "delete_*, delete", "get_?, get_", "get_?, get_ab", "*_file, read_files",
        "a*b*c, acb", "?*, ''", "exact, exactly", "exact, Exact", "a*a*a*a*a*b, aaaaaaaaaaaaaaaaaaaaaaaaaaa",
    })
    void doesNotMatch(String pattern, String name) {
        assertThat(Glob.matches(pattern, name)).isFalse();
    }

    @Test
    void treatsRegexCharactersLiterally() {
        assertThat(Glob.matches("a.b", "a.b")).isTrue();
        assertThat(Glob.matches("a.b", "axb")).isFalse();
        assertThat(Glob.matches("[ab]*", "[ab]x")).isTrue();
        assertThat(Glob.matches("[ab]*", "ax")).isFalse();
    }
}
