package dev.mcppolicy.condition;

import static dev.mcppolicy.condition.ArgumentCondition.Outcome.FALSE;
import static dev.mcppolicy.condition.ArgumentCondition.Outcome.HOSTILE;
import static dev.mcppolicy.condition.ArgumentCondition.Outcome.TRUE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.condition.ArgumentCondition.Outcome;
import dev.mcppolicy.policy.Condition;
import dev.mcppolicy.policy.Op;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 12 ops (SPEC §3). A type mismatch makes {@code eq}, {@code in}, the comparisons, {@code regex},
 * {@code contains} and {@code max_length} false; {@code neq} and {@code not_in} are their negations, so a
 * mismatch makes them true.
 */
class ArgumentConditionTest {
    private static final int CAP = 64 * 1024;

    // --- eq / neq ---

    @Test
    void eqComparesStringsBooleansNullsListsAndMaps() {
        assertThat(test(Op.EQ, "ls", "ls")).isEqualTo(TRUE);
        assertThat(test(Op.EQ, "ls", "LS")).isEqualTo(FALSE);
        assertThat(test(Op.EQ, true, true)).isEqualTo(TRUE);
        assertThat(test(Op.EQ, true, false)).isEqualTo(FALSE);
        assertThat(test(Op.EQ, null, null)).isEqualTo(TRUE);
        assertThat(test(Op.EQ, null, "null")).isEqualTo(FALSE);
        assertThat(test(Op.EQ, List.of(1, "a"), List.of(1L, "a"))).isEqualTo(TRUE);
        assertThat(test(Op.EQ, List.of(1, "a"), List.of("a", 1))).isEqualTo(FALSE);
        assertThat(test(Op.EQ, Map.of("k", 1.0), Map.of("k", 1))).isEqualTo(TRUE);
        assertThat(test(Op.EQ, Map.of("k", 1), Map.of("k", 1, "j", 2))).isEqualTo(FALSE);
    }

    @ParameterizedTest
    @MethodSource("equalNumbersOfEveryType")
    void eqComparesNumbersByValueWhateverTheirJavaType(Number policyValue, Number argument) {
        assertThat(test(Op.EQ, policyValue, argument)).isEqualTo(TRUE);
        assertThat(test(Op.EQ, argument, policyValue)).isEqualTo(TRUE);
        assertThat(test(Op.NEQ, policyValue, argument)).isEqualTo(FALSE);
        assertThat(test(Op.IN, List.of("x", policyValue), argument)).isEqualTo(TRUE);
        assertThat(test(Op.NOT_IN, List.of(policyValue), argument)).isEqualTo(FALSE);
        assertThat(test(Op.LTE, policyValue, argument)).isEqualTo(TRUE);
        assertThat(test(Op.GTE, policyValue, argument)).isEqualTo(TRUE);
        assertThat(test(Op.LT, policyValue, argument)).isEqualTo(FALSE);
        assertThat(test(Op.GT, policyValue, argument)).isEqualTo(FALSE);
    }

    static Stream<Arguments> equalNumbersOfEveryType() {
        return Stream.of(
                Arguments.of(5, 5L),
                Arguments.of(5, 5.0),
                Arguments.of(5, new BigDecimal("5.00")),
                Arguments.of(5, BigInteger.valueOf(5)),
                Arguments.of(5L, 5.0f),
                Arguments.of(5.0, new BigDecimal("5")),
                Arguments.of(5.0, BigInteger.valueOf(5)),
                Arguments.of(new BigDecimal("5.0"), BigInteger.valueOf(5)),
                Arguments.of(0.1, new BigDecimal("0.1")),
                Arguments.of(-2.5, new BigDecimal("-2.50")),
                Arguments.of(Long.MAX_VALUE, new BigInteger("9223372036854775807")),
                Arguments.of(new BigInteger("100000000000000000000"), new BigDecimal("1E+20")),
                Arguments.of((short) 7, (byte) 7));
    }

    @Test
    void aTypeMismatchMakesEqFalseAndNeqTrue() {
        assertThat(test(Op.EQ, 5, "5")).isEqualTo(FALSE);
        assertThat(test(Op.NEQ, 5, "5")).isEqualTo(TRUE);
        assertThat(test(Op.EQ, 1, true)).isEqualTo(FALSE);
        assertThat(test(Op.NEQ, 1, true)).isEqualTo(TRUE);
        assertThat(test(Op.EQ, "x", List.of("x"))).isEqualTo(FALSE);
        assertThat(test(Op.NEQ, "x", List.of("x"))).isEqualTo(TRUE);
    }

    @Test
    void neqIsTrueForDifferentValues() {
        assertThat(test(Op.NEQ, "prod", "dev")).isEqualTo(TRUE);
        assertThat(test(Op.NEQ, "prod", "prod")).isEqualTo(FALSE);
        assertThat(test(Op.NEQ, 1, 2)).isEqualTo(TRUE);
    }

    // --- in / not_in ---

    @Test
    void inFindsTheValueAmongTheListed() {
        assertThat(test(Op.IN, List.of("dev", "staging"), "dev")).isEqualTo(TRUE);
        assertThat(test(Op.IN, List.of("dev", "staging"), "prod")).isEqualTo(FALSE);
        assertThat(test(Op.IN, List.of(), "dev")).isEqualTo(FALSE);
        assertThat(test(Op.IN, Arrays.asList("a", null), null)).isEqualTo(TRUE);
        assertThat(test(Op.IN, List.of(List.of(1)), List.of(1.0))).isEqualTo(TRUE);
    }

    @Test
    void aTypeMismatchMakesInFalseAndNotInTrue() {
        assertThat(test(Op.IN, List.of(1, 2), "1")).isEqualTo(FALSE);
        assertThat(test(Op.NOT_IN, List.of(1, 2), "1")).isEqualTo(TRUE);
    }

    @Test
    void notInIsTrueForAValueNotListed() {
        assertThat(test(Op.NOT_IN, List.of("prod"), "dev")).isEqualTo(TRUE);
        assertThat(test(Op.NOT_IN, List.of("prod"), "prod")).isEqualTo(FALSE);
        assertThat(test(Op.NOT_IN, List.of(), "prod")).isEqualTo(TRUE);
    }

    // --- comparisons ---

    @Test
    void comparesNumbersAtTheBoundary() {
        assertThat(test(Op.LT, 10, 9)).isEqualTo(TRUE);
        assertThat(test(Op.LT, 10, 10)).isEqualTo(FALSE);
        assertThat(test(Op.LTE, 10, 10)).isEqualTo(TRUE);
        assertThat(test(Op.LTE, 10, 10.5)).isEqualTo(FALSE);
        assertThat(test(Op.GT, 10, 11)).isEqualTo(TRUE);
        assertThat(test(Op.GT, 10, 10)).isEqualTo(FALSE);
        assertThat(test(Op.GTE, 10, 10)).isEqualTo(TRUE);
        assertThat(test(Op.GTE, 10, 9.999)).isEqualTo(FALSE);
    }

    @Test
    void comparesAcrossJavaTypesBothWaysRound() {
        assertThat(test(Op.LT, 10, new BigDecimal("9.99"))).isEqualTo(TRUE);
        assertThat(test(Op.LT, new BigDecimal("9.99"), 10)).isEqualTo(FALSE);
        assertThat(test(Op.GT, 2.5, BigInteger.valueOf(3))).isEqualTo(TRUE);
        assertThat(test(Op.GT, BigInteger.valueOf(3), 2.5)).isEqualTo(FALSE);
        assertThat(test(Op.GT, Long.MAX_VALUE, new BigInteger("9223372036854775808"))).isEqualTo(TRUE);
        assertThat(test(Op.LT, 9007199254740993L, 9007199254740992.0)).isEqualTo(TRUE);
        assertThat(test(Op.GT, -1, -0.5f)).isEqualTo(TRUE);
    }

    @ParameterizedTest
    @EnumSource(value = Op.class, names = {"LT", "LTE", "GT", "GTE"})
    void aComparisonWithANonNumberIsFalse(Op op) {
        assertThat(test(op, 10, "5")).isEqualTo(FALSE);
        assertThat(test(op, 10, "50")).isEqualTo(FALSE);
        assertThat(test(op, 10, true)).isEqualTo(FALSE);
        assertThat(test(op, 10, null)).isEqualTo(FALSE);
        assertThat(test(op, 10, List.of(5))).isEqualTo(FALSE);
        assertThat(test(op, 10, Double.NaN)).isEqualTo(FALSE);
    }

    @Test
    void comparesWithInfinity() {
        assertThat(test(Op.GT, 10, Double.POSITIVE_INFINITY)).isEqualTo(TRUE);
        assertThat(test(Op.LT, 10, Double.NEGATIVE_INFINITY)).isEqualTo(TRUE);
    }

    // --- regex ---

    @Test
    void regexSearchesUnlessAnchored() {
        assertThat(test(Op.REGEX, "rm", "sudo rm -rf /")).isEqualTo(TRUE);
        assertThat(test(Op.REGEX, "^rm", "sudo rm -rf /")).isEqualTo(FALSE);
        assertThat(test(Op.REGEX, "^(ls|cat)( .*)?$", "ls -la")).isEqualTo(TRUE);
        assertThat(test(Op.REGEX, "^(ls|cat)( .*)?$", "lsblk")).isEqualTo(FALSE);
        assertThat(test(Op.REGEX, "^(ls|cat)( .*)?$", "ls\nrm -rf /")).isEqualTo(FALSE);
        assertThat(test(Op.REGEX, "", "")).isEqualTo(TRUE);
    }

    @Test
    void regexOnANonStringIsFalse() {
        assertThat(test(Op.REGEX, "1", 1)).isEqualTo(FALSE);
        assertThat(test(Op.REGEX, "a", List.of("a"))).isEqualTo(FALSE);
        assertThat(test(Op.REGEX, "null", null)).isEqualTo(FALSE);
    }

    @Test
    void regexStaysLinearOnHostileInput() {
        String hostile = "a".repeat(10_000) + "!";

        assertThat(test(Op.REGEX, "(a+)+$", hostile)).isEqualTo(FALSE);
        assertThat(test(Op.REGEX, "^(a|aa)+$", hostile)).isEqualTo(FALSE);
        assertThat(test(Op.REGEX, "(a+)+!", hostile)).isEqualTo(TRUE);
    }

    // --- contains ---

    @Test
    void containsFindsASubstringOrAListElement() {
        assertThat(test(Op.CONTAINS, "rm -rf", "cd / && rm -rf *")).isEqualTo(TRUE);
        assertThat(test(Op.CONTAINS, "rm -rf", "rm -r -f")).isEqualTo(FALSE);
        assertThat(test(Op.CONTAINS, "", "anything")).isEqualTo(TRUE);
        assertThat(test(Op.CONTAINS, "admin", List.of("user", "admin"))).isEqualTo(TRUE);
        assertThat(test(Op.CONTAINS, "adm", List.of("user", "admin"))).isEqualTo(FALSE);
        assertThat(test(Op.CONTAINS, 2, List.of(1L, 2L))).isEqualTo(TRUE);
        assertThat(test(Op.CONTAINS, 2, List.of(1.0, 2.0))).isEqualTo(TRUE);
    }

    @Test
    void containsOnAMismatchedTypeIsFalse() {
        assertThat(test(Op.CONTAINS, 5, "a5")).isEqualTo(FALSE);
        assertThat(test(Op.CONTAINS, "k", Map.of("k", "v"))).isEqualTo(FALSE);
        assertThat(test(Op.CONTAINS, "5", 5)).isEqualTo(FALSE);
        assertThat(test(Op.CONTAINS, "5", List.of(5))).isEqualTo(FALSE);
    }

    // --- exists ---

    @Test
    void existsTestsPresence() {
        assertThat(test(Op.EXISTS, true, "x")).isEqualTo(TRUE);
        assertThat(test(Op.EXISTS, true, null)).isEqualTo(TRUE);
        assertThat(test(Op.EXISTS, true, List.of())).isEqualTo(TRUE);
        assertThat(absent(Op.EXISTS, true)).isEqualTo(FALSE);
        assertThat(test(Op.EXISTS, false, "x")).isEqualTo(FALSE);
        assertThat(test(Op.EXISTS, false, null)).isEqualTo(FALSE);
        assertThat(absent(Op.EXISTS, false)).isEqualTo(TRUE);
    }

    // --- max_length ---

    @Test
    void maxLengthBoundsStringsListsAndMaps() {
        assertThat(test(Op.MAX_LENGTH, 3, "abc")).isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 3, "abcd")).isEqualTo(FALSE);
        assertThat(test(Op.MAX_LENGTH, 0, "")).isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 2, List.of(1, 2))).isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 2, List.of(1, 2, 3))).isEqualTo(FALSE);
        assertThat(test(Op.MAX_LENGTH, 1, Map.of("a", 1))).isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 1, Map.of("a", 1, "b", 2))).isEqualTo(FALSE);
        assertThat(test(Op.MAX_LENGTH, 3.0, "abc")).isEqualTo(TRUE);
    }

    @Test
    void maxLengthCountsUtf16CharsLikeTheValueCap() {
        assertThat(test(Op.MAX_LENGTH, 1, "\uD83D\uDE00")).isEqualTo(FALSE);
        assertThat(test(Op.MAX_LENGTH, 2, "\uD83D\uDE00")).isEqualTo(TRUE);
    }

    @Test
    void maxLengthOfANumberBooleanOrNullIsFalse() {
        assertThat(test(Op.MAX_LENGTH, 10, 5)).isEqualTo(FALSE);
        assertThat(test(Op.MAX_LENGTH, 10, true)).isEqualTo(FALSE);
        assertThat(test(Op.MAX_LENGTH, 10, null)).isEqualTo(FALSE);
    }

    @Test
    void aMaxLengthBeyondAnyLengthIsNoLimit() {
        BigInteger twoToThe64 = BigInteger.ONE.shiftLeft(64);

        assertThat(test(Op.MAX_LENGTH, twoToThe64, "abc")).isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 1e300, "abc")).isEqualTo(TRUE);
    }

    // --- absent paths and hostile values ---

    @ParameterizedTest
    @EnumSource(Op.class)
    void aConditionOnAnAbsentPathIsFalse(Op op) {
        assertThat(absent(op, valueFor(op))).isEqualTo(FALSE);
    }

    @ParameterizedTest
    @EnumSource(Op.class)
    void aStringOverTheCapIsHostileWhateverTheOp(Op op) {
        ArgumentCondition condition = new ArgumentCondition(new Condition("a", op, valueFor(op)), 8);

        assertThat(condition.test(Map.of("a", "123456789"))).isEqualTo(HOSTILE);
        assertThat(condition.test(Map.of("a", "12345678"))).isNotEqualTo(HOSTILE);
    }

    @Test
    void theCapAppliesToStringsOnly() {
        ArgumentCondition condition = new ArgumentCondition(new Condition("a", Op.MAX_LENGTH, 100), 8);

        assertThat(condition.test(Map.of("a", List.of(1, 2, 3, 4, 5, 6, 7, 8, 9)))).isEqualTo(TRUE);
    }

    @Test
    void findsTheValueByDotPathWithIndexesAndTheArgsPrefix() {
        Map<String, Object> args = Map.of("opts", List.of(Map.of("name", "x")));

        assertThat(new ArgumentCondition(new Condition("opts.0.name", Op.EQ, "x"), CAP).test(args)).isEqualTo(TRUE);
        assertThat(new ArgumentCondition(new Condition("args.opts.0.name", Op.EQ, "x"), CAP).test(args)).isEqualTo(TRUE);
        assertThat(new ArgumentCondition(new Condition("opts.1.name", Op.EQ, "x"), CAP).test(args)).isEqualTo(FALSE);
    }

    @Test
    void describesItselfAsAPolicyWouldWriteIt() {
        assertThat(describe("command", Op.REGEX, "^(ls|cat)( .*)?$")).isEqualTo("command regex \"^(ls|cat)( .*)?$\"");
        assertThat(describe("n", Op.IN, List.of(1, "a"))).isEqualTo("n in [1,\"a\"]");
        assertThat(describe("n", Op.EXISTS, true)).isEqualTo("n exists");
        assertThat(describe("n", Op.EXISTS, false)).isEqualTo("n exists false");
        assertThat(describe("n", Op.EQ, null)).isEqualTo("n eq null");
    }

    @Test
    void keepsItsSource() {
        Condition source = new Condition("a", Op.EQ, 1);

        assertThat(new ArgumentCondition(source, CAP).source()).isSameAs(source);
    }

    private static Object valueFor(Op op) {
        switch (op) {
            case IN:
            case NOT_IN:
                return List.of("x");
            case LT:
            case LTE:
            case GT:
            case GTE:
            case MAX_LENGTH:
                return 10;
            case EXISTS:
                return true;
            default:
                return "x";
        }
    }

    private static Outcome test(Op op, Object value, Object argument) {
        Map<String, Object> args = new HashMap<>();
        args.put("a", argument);
        return new ArgumentCondition(new Condition("a", op, value), CAP).test(args);
    }

    private static Outcome absent(Op op, Object value) {
        return new ArgumentCondition(new Condition("a", op, value), CAP).test(Map.of("b", "x"));
    }

    private static String describe(String path, Op op, Object value) {
        return new ArgumentCondition(new Condition(path, op, value), CAP).describe();
    }
}
