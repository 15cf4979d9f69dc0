package dev.mcppolicy.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DisplayTextTest {

    private static String quoted(String text, char quote, int cap) {
        StringBuilder out = new StringBuilder();
        DisplayText.appendQuoted(text, quote, cap, out);
        return out.toString();
    }

    @ParameterizedTest
    @ValueSource(ints = {0x00, 0x07, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9f, 0x2028, 0x2029, 0x202a, 0x202b,
            0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x200b, 0x200d, 0xfeff,
            0x00ad, 0xe0001, 0xe0041, 0xd800, 0xdfff, 0x0378})
    void treatsLineBreaksControlsBidiFormatUnassignedAndSurrogatesAsUnsafe(int codePoint) {
        assertThat(DisplayText.isUnsafe(codePoint)).as("U+%04X", codePoint).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {'a', ' ', '"', '=', '\\', 0xa0, 0xe9, 0x3000, 0x1f600, 0x4e2d, 0xe000})
    void leavesVisibleTextAndSpacesAlone(int codePoint) {
        assertThat(DisplayText.isUnsafe(codePoint)).as("U+%04X", codePoint).isFalse();
    }

    @Test
    void escapesTheQuoteBackslashAndUnsafeCodePointsAsJsonEscapes() {
        assertThat(quoted("a\"b\\c'd", '"', 100)).isEqualTo("a\\\"b\\\\c'd");
        assertThat(quoted("a\"b\\c'd", '\'', 100)).isEqualTo("a\"b\\\\c\\'d");
        assertThat(quoted("l1\nl2\r\tx\u0000\u007f\u0085", '"', 100)).isEqualTo("l1\\nl2\\r\\tx\\u0000\\u007f\\u0085");
        assertThat(quoted("\u2028\u2029\u202eabc\u2066\u200e\u061c", '"', 100))
                .isEqualTo("\\u2028\\u2029\\u202eabc\\u2066\\u200e\\u061c");
    }

    @Test
    void escapesLoneSurrogatesAndFormatCharactersBeyondTheBmpButKeepsOtherPairs() {
        assertThat(quoted("a\uD800b\uDC00c", '"', 100)).isEqualTo("a\\ud800b\\udc00c");
        assertThat(quoted("\uD83D\uDE00 caf\u00e9", '"', 100)).isEqualTo("\uD83D\uDE00 caf\u00e9");
        assertThat(quoted("tag\uDB40\uDC41", '"', 100)).as("U+E0041 TAG LATIN CAPITAL LETTER A").isEqualTo("tag\\udb40\\udc41");
    }

    @Test
    void capsLongTextAndSaysHowManyCharsWereCut() {
        assertThat(quoted("a".repeat(10_240), '"', 256)).isEqualTo("a".repeat(256) + "\u2026(+9984 chars)");
        assertThat(quoted("a".repeat(256), '"', 256)).isEqualTo("a".repeat(256));
        assertThat(quoted("a".repeat(255) + "\uD83D\uDE00b", '"', 256))
                .as("a surrogate pair is never split").isEqualTo("a".repeat(255) + "\u2026(+3 chars)");
        assertThat(quoted("\n".repeat(300), '"', 256)).isEqualTo("\\n".repeat(256) + "\u2026(+44 chars)");
    }

    @Test
    void escapesJsonTextWithoutChangingItsValue() {
        StringBuilder out = new StringBuilder();
        DisplayText.appendJsonText("{\"k\\\"\":\"a\u2028b\u202e\",\"n\":[1,\"\\u0000\"]}", out);
        assertThat(out).hasToString("{\"k\\\"\":\"a\\u2028b\\u202e\",\"n\":[1,\"\\u0000\"]}");
    }
}
