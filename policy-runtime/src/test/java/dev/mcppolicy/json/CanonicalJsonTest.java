package dev.mcppolicy.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CanonicalJsonTest {

    @Test
    void sortsKeysAndWritesNoWhitespace() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("d", true);
        inner.put("c", null);
        Map<String, Object> outer = new LinkedHashMap<>();
        outer.put("b", inner);
        outer.put("a", List.of(1, 2.5, "x"));

        assertThat(CanonicalJson.write(outer)).isEqualTo("{\"a\":[1,2.5,\"x\"],\"b\":{\"c\":null,\"d\":true}}");
    }

    @Test
    void sortsKeysByUtf16CodeUnits() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("b", 1);
        map.put("B", 2);
        map.put("\u00e9", 3);
        map.put("a1", 4);
        map.put("a", 5);

        assertThat(CanonicalJson.write(map)).isEqualTo("{\"B\":2,\"a\":5,\"a1\":4,\"b\":1,\"\u00e9\":3}");
    }

    @Test
    void writesScalarsEmptyContainersAndArrays() {
        assertThat(CanonicalJson.write(null)).isEqualTo("null");
        assertThat(CanonicalJson.write(true)).isEqualTo("true");
        assertThat(CanonicalJson.write("x")).isEqualTo("\"x\"");
        assertThat(CanonicalJson.write(Map.of())).isEqualTo("{}");
        assertThat(CanonicalJson.write(List.of())).isEqualTo("[]");
        assertThat(CanonicalJson.write(new Object[] {1, "a"})).isEqualTo("[1,\"a\"]");
        assertThat(CanonicalJson.write(Arrays.asList(null, false))).isEqualTo("[null,false]");
        assertThat(CanonicalJson.write(Map.of(1, "one"))).isEqualTo("{\"1\":\"one\"}");
    }

    @ParameterizedTest
    @MethodSource("equalNumbers")
    void writesEqualNumbersTheSameWhateverTheirJavaType(String expected, List<Number> numbers) {
        for (Number number : numbers) {
            assertThat(CanonicalJson.write(number)).as("%s (%s)", number, number.getClass().getSimpleName())
                    .isEqualTo(expected);
        }
    }

    static Stream<Arguments> equalNumbers() {
        return Stream.of(
                Arguments.of("1", List.of(1, 1L, 1.0, 1.0f, new BigDecimal("1.00"), BigInteger.ONE, (short) 1)),
                Arguments.of("0", List.of(0, 0.0, -0.0, new BigDecimal("0.000"), BigInteger.ZERO)),
                Arguments.of("-7", List.of(-7, -7L, -7.0, new BigDecimal("-7.0"))),
                Arguments.of("0.1", List.of(0.1, new BigDecimal("0.1"), new BigDecimal("0.100"))),
                Arguments.of("2.5", List.of(2.5, 2.5f, new BigDecimal("2.50"))),
                Arguments.of("100", List.of(100, 100.0, new BigDecimal("1E+2"), BigInteger.valueOf(100))),
                Arguments.of("1000000000000000", List.of(1_000_000_000_000_000L, 1e15, new BigDecimal("1E+15"))),
                Arguments.of("1152921504606846976", List.of(1L << 60, (double) (1L << 60), BigInteger.ONE.shiftLeft(60))),
                Arguments.of("9223372036854775807", List.of(Long.MAX_VALUE, new BigInteger("9223372036854775807"))),
                Arguments.of("100000000000000000000", List.of(1e20, new BigDecimal("1E+20"), BigInteger.TEN.pow(20))),
                Arguments.of("1E+21", List.of(1e21, new BigDecimal("1000000000000000000000"), BigInteger.TEN.pow(21))),
                Arguments.of("1E+300", List.of(1e300, new BigDecimal("1E+300"), BigInteger.TEN.pow(300))),
                Arguments.of("1.5E-7", List.of(1.5e-7, new BigDecimal("0.00000015"))),
                Arguments.of("123.456", List.of(123.456, new BigDecimal("123.4560"))));
    }

    @Test
    void writesNonFiniteNumbersAsNull() {
        assertThat(CanonicalJson.write(List.of(Double.NaN, Double.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY)))
                .isEqualTo("[null,null,null]");
    }

    @Test
    void escapesWhatJsonRequiresAndNothingElse() {
        assertThat(CanonicalJson.write("quote\" backslash\\ slash/")).isEqualTo("\"quote\\\" backslash\\\\ slash/\"");
        assertThat(CanonicalJson.write("\n\r\t\b\f")).isEqualTo("\"\\n\\r\\t\\b\\f\"");
        assertThat(CanonicalJson.write("\u0000\u0001\u001f")).isEqualTo("\"\\u0000\\u0001\\u001f\"");
        assertThat(CanonicalJson.write("\u007f caf\u00e9 \uD83D\uDE00 \u2028")).isEqualTo("\"\u007f caf\u00e9 \uD83D\uDE00 \u2028\"");
        assertThat(CanonicalJson.write(Map.of("k\"ey", 1))).isEqualTo("{\"k\\\"ey\":1}");
    }

    @Test
    void escapesLoneSurrogatesSoTheyCannotHashLikeAQuestionMark() {
        assertThat(CanonicalJson.write("a\uD800b")).isEqualTo("\"a\\ud800b\"");
        assertThat(CanonicalJson.write("\uDC00\uD83D\uDE00\uD83D")).isEqualTo("\"\\udc00\uD83D\uDE00\\ud83d\"");
        assertThat(CanonicalJson.sha256(Map.of("cmd", "rm \uD800"))).isNotEqualTo(CanonicalJson.sha256(Map.of("cmd", "rm ?")));
    }

    @Test
    void quotesIntoAnExistingBuilder() {
        StringBuilder out = new StringBuilder("reason=");

        CanonicalJson.quote("say \"no\"", out);

        assertThat(out).hasToString("reason=\"say \\\"no\\\"\"");
    }

    @Test
    void hashesTheCanonicalTextWithSha256() {
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("b", Map.of("d", true, "c", new LinkedHashMap<>(Map.of())));
        arguments.put("a", List.of(1, 2.5, "x"));
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("d", true);
        inner.put("c", null);
        Map<String, Object> sameValues = new LinkedHashMap<>();
        sameValues.put("a", List.of(1L, new BigDecimal("2.50"), "x"));
        sameValues.put("b", inner);
        Map<String, Object> reordered = new LinkedHashMap<>();
        reordered.put("b", inner);
        reordered.put("a", List.of(1.0, 2.5, "x"));

        assertThat(CanonicalJson.sha256(sameValues))
                .isEqualTo("3f2209c9470486da010ac643a0abb7892811de0d5da1cca29f5c5a88356dce1d")
                .isEqualTo(CanonicalJson.sha256(reordered))
                .isEqualTo(CanonicalJson.sha256Hex("{\"a\":[1,2.5,\"x\"],\"b\":{\"c\":null,\"d\":true}}"
                        .getBytes(StandardCharsets.UTF_8)));
        assertThat(CanonicalJson.sha256(arguments)).isNotEqualTo(CanonicalJson.sha256(sameValues));
    }

    @Test
    void hashesBytesToLowercaseHex() {
        assertThat(CanonicalJson.sha256Hex("abc".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(CanonicalJson.sha256Hex(new byte[0]))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }
}
