package dev.mcppolicy.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.Hostile;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonValuesTest {

    @ParameterizedTest
    @MethodSource("equalNumbers")
    void numbersOfAnyTypeAreEqualByValueBothWaysRound(Number a, Number b) {
        assertThat(JsonValues.jsonEquals(a, b)).isTrue();
        assertThat(JsonValues.jsonEquals(b, a)).isTrue();
        assertThat(JsonValues.compareNumbers(a, b)).isZero();
        assertThat(JsonValues.compareNumbers(b, a)).isZero();
    }

    static Stream<Arguments> equalNumbers() {
        return Stream.of(
                Arguments.of(1, 1L), Arguments.of(1, 1.0), Arguments.of(1, 1.0f), Arguments.of(1, new BigDecimal("1.00")),
                Arguments.of(1, BigInteger.ONE), Arguments.of(1.0, BigInteger.ONE), Arguments.of(1.0, new BigDecimal("1")),
                Arguments.of(new BigDecimal("1.0"), BigInteger.ONE), Arguments.of((byte) 1, (short) 1),
                Arguments.of(0.1, new BigDecimal("0.1")), Arguments.of(0.0, -0.0), Arguments.of(0, -0.0),
                Arguments.of(1L << 60, (double) (1L << 60)), Arguments.of(BigInteger.ONE.shiftLeft(64), 0x1p64),
                Arguments.of(1e300, new BigDecimal("1e300")), Arguments.of(-2.5, new BigDecimal("-2.500")));
    }

    @Test
    void findsMultiplesExactlyInDecimalWhateverTheJavaTypes() {
        assertThat(JsonValues.isMultipleOf(9, 3)).isTrue();
        assertThat(JsonValues.isMultipleOf(10L, 3)).isFalse();
        assertThat(JsonValues.isMultipleOf(0.3, 0.1)).isTrue();
        assertThat(JsonValues.isMultipleOf(new BigDecimal("0.30"), new BigDecimal("0.1"))).isTrue();
        assertThat(JsonValues.isMultipleOf(7.5, 2.5)).isTrue();
        assertThat(JsonValues.isMultipleOf(7.4, 2.5)).isFalse();
        assertThat(JsonValues.isMultipleOf(1e20, 4)).isTrue();
        assertThat(JsonValues.isMultipleOf(BigInteger.TEN.pow(40).add(BigInteger.ONE), 10)).isFalse();
        assertThat(JsonValues.isMultipleOf(-12, 0.25)).isTrue();
        assertThat(JsonValues.isMultipleOf(0, 0.7)).isTrue();
        assertThat(JsonValues.isMultipleOf(5, 0)).as("no divisor but above 0").isFalse();
        assertThat(JsonValues.isMultipleOf(Double.NaN, 1)).isFalse();
        assertThat(JsonValues.isMultipleOf(Double.POSITIVE_INFINITY, 1)).isFalse();
    }

    @Test
    void findsMultiplesOfHugeExponentsWithoutExpandingThem() {
        assertThat(JsonValues.isMultipleOf(Hostile.HUGE_EXPONENT, 2)).isTrue();
        assertThat(JsonValues.isMultipleOf(Hostile.HUGE_EXPONENT, 3)).isFalse();
        assertThat(JsonValues.isMultipleOf(Hostile.HUGE_EXPONENT, new BigDecimal("1e399999999"))).isTrue();
        assertThat(JsonValues.isMultipleOf(Hostile.TINY, 1)).isFalse();
        assertThat(JsonValues.isMultipleOf(1, Hostile.TINY)).isTrue();
        assertThat(JsonValues.isMultipleOf(new BigDecimal("3e-400000000"), Hostile.TINY)).isTrue();
    }

    @ParameterizedTest
    @MethodSource("orderedNumbers")
    void ordersNumbersOfAnyTypeByValue(Number smaller, Number larger) {
        assertThat(JsonValues.compareNumbers(smaller, larger)).isNegative();
        assertThat(JsonValues.compareNumbers(larger, smaller)).isPositive();
        assertThat(JsonValues.jsonEquals(smaller, larger)).isFalse();
    }

    static Stream<Arguments> orderedNumbers() {
        return Stream.of(
                Arguments.of(1, 2L), Arguments.of(1, 1.5), Arguments.of(1.5, 2), Arguments.of(new BigDecimal("0.1"), 0.2),
                Arguments.of(0.1, new BigDecimal("0.10000000000000001")), Arguments.of(Long.MAX_VALUE, BigInteger.ONE.shiftLeft(63)),
                Arguments.of(9007199254740992.0, 9007199254740993L), Arguments.of(-1, BigInteger.ZERO),
                Arguments.of(Double.NEGATIVE_INFINITY, Long.MIN_VALUE), Arguments.of(new BigDecimal("1e400"), Double.POSITIVE_INFINITY),
                Arguments.of(Float.MAX_VALUE, Double.MAX_VALUE));
    }

    @Test
    void nanHasNoOrderAndEqualsNothing() {
        assertThat(JsonValues.compareNumbers(Double.NaN, 1)).isEqualTo(JsonValues.UNORDERED);
        assertThat(JsonValues.compareNumbers(1.0, Double.NaN)).isEqualTo(JsonValues.UNORDERED);
        assertThat(JsonValues.compareNumbers(new BigDecimal("1"), Float.NaN)).isEqualTo(JsonValues.UNORDERED);
        assertThat(JsonValues.jsonEquals(Double.NaN, Double.NaN)).isFalse();
    }

    @Test
    void comparesStructuresElementByElement() {
        assertThat(JsonValues.jsonEquals(List.of(1, Map.of("a", 2.0)), List.of(1L, Map.of("a", new BigDecimal("2"))))).isTrue();
        assertThat(JsonValues.jsonEquals(List.of(1, 2), List.of(2, 1))).isFalse();
        assertThat(JsonValues.jsonEquals(List.of(1), List.of(1, 1))).isFalse();
        assertThat(JsonValues.jsonEquals(Map.of("a", 1), Map.of("b", 1))).isFalse();
        assertThat(JsonValues.jsonEquals(Map.of("a", 1), Map.of("a", 1, "b", 2))).isFalse();
        assertThat(JsonValues.jsonEquals(Arrays.asList((Object) null), Arrays.asList((Object) null))).isTrue();
    }

    @Test
    void neverEqualsAcrossJsonTypes() {
        assertThat(JsonValues.jsonEquals(1, "1")).isFalse();
        assertThat(JsonValues.jsonEquals(1, true)).isFalse();
        assertThat(JsonValues.jsonEquals(0, null)).isFalse();
        assertThat(JsonValues.jsonEquals(null, "")).isFalse();
        assertThat(JsonValues.jsonEquals(List.of(), Map.of())).isFalse();
        assertThat(JsonValues.jsonEquals(null, null)).isTrue();
    }

    @Test
    void tellsWholeNumbers() {
        assertThat(JsonValues.isIntegral(3)).isTrue();
        assertThat(JsonValues.isIntegral(3.0)).isTrue();
        assertThat(JsonValues.isIntegral(3e2)).isTrue();
        assertThat(JsonValues.isIntegral(new BigDecimal("3.000"))).isTrue();
        assertThat(JsonValues.isIntegral(new BigDecimal("0E-10"))).isTrue();
        assertThat(JsonValues.isIntegral(new BigDecimal("3E+5"))).isTrue();
        assertThat(JsonValues.isIntegral(BigInteger.TEN.pow(30))).isTrue();
        assertThat(JsonValues.isIntegral(3.5)).isFalse();
        assertThat(JsonValues.isIntegral(new BigDecimal("3.001"))).isFalse();
        assertThat(JsonValues.isIntegral(Double.NaN)).isFalse();
        assertThat(JsonValues.isIntegral(Double.POSITIVE_INFINITY)).isFalse();
    }

    @Test
    void namesJsonTypes() {
        assertThat(JsonValues.typeName(null)).isEqualTo("null");
        assertThat(JsonValues.typeName("x")).isEqualTo("string");
        assertThat(JsonValues.typeName(1.5)).isEqualTo("number");
        assertThat(JsonValues.typeName(BigInteger.ONE)).isEqualTo("number");
        assertThat(JsonValues.typeName(true)).isEqualTo("boolean");
        assertThat(JsonValues.typeName(Map.of())).isEqualTo("object");
        assertThat(JsonValues.typeName(List.of())).isEqualTo("array");
    }

    // --- hostile input (issue 8) ---

    @Test
    void comparesValuesNestedTenThousandLevelsDeepWithoutRecursion() {
        assertThat(Hostile.onSmallStack(() -> JsonValues.jsonEquals(Hostile.deep(Hostile.DEPTH), Hostile.deep(Hostile.DEPTH))))
                .isTrue();
        assertThat(Hostile.onSmallStack(() -> JsonValues.jsonEquals(Hostile.deep(Hostile.DEPTH, 1), Hostile.deep(Hostile.DEPTH, 1.0))))
                .isTrue();
        assertThat(Hostile.onSmallStack(() -> JsonValues.jsonEquals(Hostile.deep(Hostile.DEPTH, "x"), Hostile.deep(Hostile.DEPTH, "y"))))
                .as("differs only at the bottom").isFalse();
        assertThat(Hostile.onSmallStack(() -> JsonValues.jsonEquals(Hostile.deep(Hostile.DEPTH), Hostile.deep(Hostile.DEPTH - 1))))
                .isFalse();
        assertThat(Hostile.onSmallStack(() -> JsonValues.jsonEquals(Map.of("m", List.of("bottom")), Hostile.deep(Hostile.DEPTH))))
                .as("a shallow policy value against a deep argument").isFalse();
    }

    @Test
    void comparesLongStringsAndWideMaps() {
        String value = Hostile.longString();
        assertThat(JsonValues.jsonEquals(value, new String(value.toCharArray()))).isTrue();
        assertThat(JsonValues.jsonEquals(value, value.substring(1) + "b")).isFalse();

        Map<String, Object> changed = Hostile.wide();
        changed.put("k050000", "x");
        assertThat(Hostile.onSmallStack(() -> JsonValues.jsonEquals(Hostile.wide(), Hostile.wide()))).isTrue();
        assertThat(Hostile.onSmallStack(() -> JsonValues.jsonEquals(Hostile.wide(), changed))).isFalse();
    }

    @Test
    void ordersNumbersBeyondADoubleWithoutExpandingThem() {
        assertThat(Hostile.onSmallStack(() -> List.of(
                JsonValues.compareNumbers(Hostile.HUGE_EXPONENT, 1) > 0,
                JsonValues.compareNumbers(Hostile.HUGE_EXPONENT, Long.MAX_VALUE) > 0,
                JsonValues.compareNumbers(Hostile.HUGE_EXPONENT, Hostile.BIG) > 0,
                JsonValues.compareNumbers(Hostile.HUGE_EXPONENT, Hostile.INFINITY) < 0,
                JsonValues.compareNumbers(Hostile.NEGATIVE_HUGE_EXPONENT, Double.NEGATIVE_INFINITY) > 0,
                JsonValues.compareNumbers(Hostile.NEGATIVE_HUGE_EXPONENT, Long.MIN_VALUE) < 0,
                JsonValues.compareNumbers(Hostile.TINY, 0) > 0,
                JsonValues.compareNumbers(Hostile.TINY, Double.MIN_VALUE) < 0,
                JsonValues.compareNumbers(Hostile.BIG, Double.MAX_VALUE) > 0,
                JsonValues.isIntegral(Hostile.HUGE_EXPONENT),
                !JsonValues.isIntegral(Hostile.TINY),
                !JsonValues.isIntegral(Hostile.INFINITY))))
                .containsOnly(true);
    }

    @Test
    void treatsInfinitiesNanAndNegativeZeroAsJsonWouldHaveThem() {
        assertThat(JsonValues.jsonEquals(Hostile.INFINITY, Float.POSITIVE_INFINITY)).isTrue();
        assertThat(JsonValues.jsonEquals(Hostile.INFINITY, Hostile.BIG)).as("1e400 as a double is not 1e400 as a decimal").isFalse();
        assertThat(JsonValues.jsonEquals(Hostile.INFINITY, Double.NEGATIVE_INFINITY)).isFalse();
        assertThat(JsonValues.jsonEquals(Double.NaN, Double.NaN)).as("NaN equals nothing").isFalse();
        assertThat(JsonValues.compareNumbers(Double.NaN, 1)).isEqualTo(JsonValues.UNORDERED);
        assertThat(JsonValues.compareNumbers(Hostile.HUGE_EXPONENT, Double.NaN)).isEqualTo(JsonValues.UNORDERED);
        assertThat(JsonValues.jsonEquals(-0.0, 0)).isTrue();
        assertThat(JsonValues.jsonEquals(-0.0, BigDecimal.ZERO)).isTrue();
    }

    @Test
    void comparesLoneSurrogatesAsTheCharsTheyAre() {
        assertThat(JsonValues.jsonEquals(Hostile.LONE_HIGH, "a\uD800")).isTrue();
        assertThat(JsonValues.jsonEquals(Hostile.LONE_HIGH, "a?")).isFalse();
        assertThat(JsonValues.jsonEquals(Hostile.LONE_LOW, Hostile.LONE_HIGH)).isFalse();
        assertThat(JsonValues.jsonEquals(Hostile.NON_BMP, "\uD83D\uDE00\uD834\uDD1E")).isTrue();
    }

    @Test
    void tellsHowDeepValuesNestWithinABound() {
        assertThat(Hostile.onSmallStack(() -> JsonValues.nestsDeeperThan(Hostile.deep(Hostile.DEPTH), 64))).isTrue();
        assertThat(JsonValues.nestsDeeperThan(Hostile.deep(64), 64)).isFalse();
        assertThat(JsonValues.nestsDeeperThan(Hostile.deep(65), 64)).isTrue();
        assertThat(JsonValues.nestsDeeperThan(Map.of(), 1)).isFalse();
        assertThat(JsonValues.nestsDeeperThan(Map.of("a", List.of()), 1)).isTrue();
        assertThat(JsonValues.nestsDeeperThan("x", 0)).isFalse();
        assertThat(JsonValues.nestsDeeperThan(List.of(), 0)).isTrue();
        assertThat(JsonValues.nestsDeeperThan(Hostile.wide(), 1)).isFalse();
    }
}
