package dev.mcppolicy.condition;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The 12 ops (SPEC §3) on values of the type they are written for. {@link Outcomes} tells the outcome
 * from both places a condition can sit (T holds, F does not, U cannot be checked); what other types
 * and shapes do is {@link SmugglingTest}'s.
 */
class ArgumentConditionTest {
    private static final int CAP = 64 * 1024;
    private static final String TRUE = "T";
    private static final String FALSE = "F";
    private static final String UNCHECKABLE = "U";

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
    void regexStaysLinearOnHostileInput() {
        String hostile = "a".repeat(10_000) + "!";

        assertThat(test(Op.REGEX, "(a+)+$", hostile)).isEqualTo(FALSE);
        assertThat(test(Op.REGEX, "^(a|aa)+$", hostile)).isEqualTo(FALSE);
        assertThat(test(Op.REGEX, "(a+)+!", hostile)).isEqualTo(TRUE);
    }

    // --- contains ---

    @Test
    void containsFindsASubstringOfTheStringOrOfAnyItem() {
        assertThat(test(Op.CONTAINS, "rm -rf", "cd / && rm -rf *")).isEqualTo(TRUE);
        assertThat(test(Op.CONTAINS, "rm -rf", "rm -r -f")).isEqualTo(FALSE);
        assertThat(test(Op.CONTAINS, "", "anything")).isEqualTo(TRUE);
        assertThat(test(Op.CONTAINS, "admin", List.of("user", "admin"))).isEqualTo(TRUE);
        assertThat(test(Op.CONTAINS, "adm", List.of("user", "admin"))).as("a substring of an item").isEqualTo(TRUE);
        assertThat(test(Op.CONTAINS, "root", List.of("user", "admin"))).isEqualTo(FALSE);
        assertThat(test(Op.CONTAINS, 2, List.of(1L, 2L))).isEqualTo(TRUE);
        assertThat(test(Op.CONTAINS, 2, List.of(1.0, 2.0))).isEqualTo(TRUE);
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
    void maxLengthBoundsAStringOrEveryLeaf() {
        assertThat(test(Op.MAX_LENGTH, 3, "abc")).isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 3, "abcd")).isEqualTo(FALSE);
        assertThat(test(Op.MAX_LENGTH, 0, "")).isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 3.0, "abc")).isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 3, List.of("abcd"))).as("a long string inside an array").isEqualTo(FALSE);
        assertThat(test(Op.MAX_LENGTH, 3, Map.of("k", "abcd"))).isEqualTo(FALSE);
        assertThat(test(Op.MAX_LENGTH, 3, Map.of("long-key", "ab"))).as("keys are not values").isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 3, List.of("ab", "cd"))).as("items, not their count").isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 1, List.of("ab", "cd"))).isEqualTo(FALSE);
    }

    @Test
    void maxLengthCountsCodePointsAsJsonSchemasMaxLengthDoes() {
        assertThat(test(Op.MAX_LENGTH, 1, "\uD83D\uDE00")).as("one emoji, two UTF-16 units").isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 1, "\uD83D\uDE00\uD834\uDD1E")).isEqualTo(FALSE);
        assertThat(test(Op.MAX_LENGTH, 2, "a\uD83D\uDE00")).isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 1, "\uD800")).as("a lone surrogate is one").isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 3, "\uD83D\uDE00".repeat(3) + "a")).isEqualTo(FALSE);
        assertThat(test(Op.MAX_LENGTH, 4, "\uD83D\uDE00".repeat(3) + "a")).isEqualTo(TRUE);
    }

    @Test
    void maxLengthReadsANumberOrBooleanAsItsText() {
        assertThat(test(Op.MAX_LENGTH, 4, 5000)).isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 3, 5000)).isEqualTo(FALSE);
        assertThat(test(Op.MAX_LENGTH, 4, 5000.0)).as("5000.0 reads as 5000").isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 4, true)).isEqualTo(TRUE);
        assertThat(test(Op.MAX_LENGTH, 4, false)).isEqualTo(FALSE);
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
    void aStringOverTheCapCannotBeCheckedWhateverTheOp(Op op) {
        Condition condition = new Condition("a", op, valueFor(op));

        assertThat(Outcomes.of(condition, Map.of("a", "123456789"), 8)).isEqualTo(UNCHECKABLE);
        assertThat(Outcomes.of(condition, Map.of("a", "12345678"), 8)).isNotEqualTo(UNCHECKABLE);
        assertThat(stop(condition, ArgumentCondition.Role.DENY_IF, Map.of("a", "123456789"), 8))
                .isEqualTo(new ArgumentCondition.Stop("args.a", "args.a: a string longer than 8 characters cannot be checked"));
    }

    @Test
    void theCapBoundsTheTextOfAWholeArrayOrObject() {
        Condition condition = new Condition("a", Op.CONTAINS, "x");

        assertThat(Outcomes.of(condition, Map.of("a", List.of("1234", "5678")), 8)).isEqualTo(FALSE);
        assertThat(Outcomes.of(condition, Map.of("a", List.of("1234", "56789")), 8)).isEqualTo(UNCHECKABLE);
        assertThat(stop(condition, ArgumentCondition.Role.REQUIRE, Map.of("a", List.of("1234", "56789")), 8).detail())
                .isEqualTo("args.a: a value with more than 8 characters of text cannot be checked");
        assertThat(Outcomes.of(new Condition("a", Op.GT, 100), Map.of("a", List.of(1, 2, 3, 4, 5, 6, 7, 8, 9)), 8))
                .as("numbers count as items, not text").isEqualTo(FALSE);
    }

    @Test
    void findsTheValueByDotPathWithIndexesAndTheArgsPrefix() {
        Map<String, Object> args = Map.of("opts", List.of(Map.of("name", "x")));

        assertThat(Outcomes.of(new Condition("opts.0.name", Op.EQ, "x"), args, CAP)).isEqualTo(TRUE);
        assertThat(Outcomes.of(new Condition("args.opts.0.name", Op.EQ, "x"), args, CAP)).isEqualTo(TRUE);
        assertThat(Outcomes.of(new Condition("opts.1.name", Op.EQ, "x"), args, CAP)).isEqualTo(FALSE);
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

        assertThat(new ArgumentCondition(source, ArgumentCondition.Role.REQUIRE, CAP).source()).isSameAs(source);
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

    private static String test(Op op, Object value, Object argument) {
        Map<String, Object> args = new HashMap<>();
        args.put("a", argument);
        return Outcomes.of(new Condition("a", op, value), args, CAP);
    }

    private static String absent(Op op, Object value) {
        return Outcomes.of(new Condition("a", op, value), Map.of("b", "x"), CAP);
    }

    static ArgumentCondition.Stop stop(Condition condition, ArgumentCondition.Role role, Map<String, ?> arguments, int cap) {
        return new ArgumentCondition(condition, role, cap).check(arguments);
    }

    private static String describe(String path, Op op, Object value) {
        return new ArgumentCondition(new Condition(path, op, value), ArgumentCondition.Role.DENY_IF, CAP).describe();
    }
}
