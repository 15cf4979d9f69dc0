package dev.mcppolicy.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ResourceUrisTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "file:///public/%2e%2e/etc/passwd|file:///etc/passwd",
        "file:///public/%2E%2E/etc/passwd|file:///etc/passwd",
        "file:///public/../etc/passwd|file:///etc/passwd",
        "file:///public/./a/./b|file:///public/a/b",
        "file:///public/a/..|file:///public/",
        "file:///../../etc|file:///etc",
        "file:///public/%252e%252e/etc|file:///etc",
        "file:///public/..%2fetc/passwd|file:///etc/passwd",
        "file:///public\\..\\etc\\passwd|file:///etc/passwd",
        "FILE:///Public/A|file:///Public/A",
        "HTTPS://Example.COM/Docs/../A?x=../y#f|https://example.com/A?x=../y#f",
        "file:///caf%C3%A9.txt|file:///café.txt",
        "file:///public/a%20b|file:///public/a b",
        "db://orders/42|db://orders/42",
        "relative/../x|/x",
        "file:///public/*|file:///public/*",
    })
    void normalizesBeforeMatching(String uri, String normalized) {
        assertThat(ResourceUris.problem(uri)).isNull();
        assertThat(ResourceUris.normalizeOrNull(uri)).isEqualTo(normalized);
    }

    @ParameterizedTest
    @ValueSource(strings = {"file:///a%zz", "file:///a%2", "file:///a%00b", "file:///a%ff%fe", "file:///a%25252525252e", "file:///a\nb"})
    void aUriThatCannotBeNormalizedHasNoForm(String uri) {
        assertThat(ResourceUris.normalizeOrNull(uri)).isNull();
        assertThat(ResourceUris.problem(uri)).isNotBlank();
    }

    @org.junit.jupiter.api.Test
    void anOverlongUriHasNoForm() {
        String uri = "file:///" + "a".repeat(ResourceUris.MAX_LENGTH);
        assertThat(ResourceUris.normalizeOrNull(uri)).isNull();
        assertThat(ResourceUris.problem(uri)).isEqualTo("longer than 8192 characters");
    }

    @org.junit.jupiter.api.Test
    void traversalDoesNotMatchTheGlobItEscapes() {
        String normalized = ResourceUris.normalizeOrNull("file:///public/%2e%2e/etc/passwd");
        assertThat(Glob.matches("file:///public/*", normalized)).isFalse();
        assertThat(Glob.matches("file:///etc/*", normalized)).isTrue();
    }
}
