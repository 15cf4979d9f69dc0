package dev.mcppolicy.condition;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.Hostile;
import dev.mcppolicy.policy.Condition;
import dev.mcppolicy.policy.Op;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every op on every hostile argument (issue 8, item 4): nothing throws, overflows the stack or hangs,
 * and the outcome is the one recorded here ({@link Outcomes}: T holds, F does not, U cannot be checked).
 * A string over the cap cannot be checked whatever the op; an array or object deeper than
 * {@value ArgumentCondition#MAX_DEPTH} levels or wider than {@value ArgumentCondition#MAX_NODES} values
 * cannot be checked by any op that reads it ({@code exists} does not).
 */
public class HostileArgumentsTest {
    private static final int CAP = 64 * 1024;
    /** Each op with the policy value it is tested with, in the order of the expectation strings below. */
    public static final List<Condition> CONDITIONS = List.of(
            new Condition("a", Op.EQ, "ls"),
            new Condition("a", Op.NEQ, "ls"),
            new Condition("a", Op.IN, List.of("ls", 1)),
            new Condition("a", Op.NOT_IN, List.of("ls", 1)),
            new Condition("a", Op.LT, 100),
            new Condition("a", Op.LTE, 100),
            new Condition("a", Op.GT, 100),
            new Condition("a", Op.GTE, 100),
            new Condition("a", Op.REGEX, "a"),
            new Condition("a", Op.CONTAINS, "a"),
            new Condition("a", Op.EXISTS, true),
            new Condition("a", Op.MAX_LENGTH, 10));

    /** Name, argument value, and the outcome of each of {@link #CONDITIONS} on it: T, F or U. */
    public static Stream<Arguments> hostileArguments() {
        List<Object> wideList = new ArrayList<>(Collections.nCopies(Hostile.WIDE, "b"));
        wideList.add("a");
        //                                                              eq neq in nin lt lte gt gte re co ex ml
        return Stream.of(
                Arguments.of("deep map", Hostile.deep(Hostile.DEPTH), "U U U U U U U U U U T U"),
                Arguments.of("deep list", List.of(Hostile.deep(Hostile.DEPTH)), "U U U U U U U U U U T U"),
                Arguments.of("10 MB string", Hostile.longString(), "U U U U U U U U U U U U"),
                Arguments.of("100,000-key map", Hostile.wide(), "U U U U U U U U U U T U"),
                Arguments.of("100,001-item list ending in \"a\"", wideList, "U U U U U U U U U U T U"),
                Arguments.of("1e400 as +infinity", Hostile.INFINITY, "F T F T F F T T F F T T"),
                Arguments.of("-1e400 as -infinity", Double.NEGATIVE_INFINITY, "F T F T T T F F F F T T"),
                Arguments.of("1e400 as BigDecimal", Hostile.BIG, "F T F T F F T T F F T T"),
                Arguments.of("1e400000000", Hostile.HUGE_EXPONENT, "F T F T F F T T F F T F"),
                Arguments.of("-1e400000000", Hostile.NEGATIVE_HUGE_EXPONENT, "F T F T T T F F F F T F"),
                Arguments.of("1e-400000000", Hostile.TINY, "F T F T T T F F F F T F"),
                Arguments.of("NaN", Double.NaN, "F T U U U U U U T T T T"),
                Arguments.of("-0.0", -0.0, "F T F T T T F F F F T T"),
                Arguments.of("lone high surrogate", Hostile.LONE_HIGH, "F T U U U U U U T T T T"),
                Arguments.of("lone low surrogate", Hostile.LONE_LOW, "F T U U U U U U T T T T"),
                Arguments.of("non-BMP", Hostile.NON_BMP, "F T U U U U U U F F T T"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileArguments")
    void everyOpDecidesAHostileArgumentWithoutThrowingOrHanging(String name, Object argument, String expected) {
        Map<String, Object> arguments = Map.of("a", argument);

        String outcomes = Hostile.onSmallStack(() -> {
            List<String> found = new ArrayList<>();
            for (Condition condition : CONDITIONS) {
                found.add(Outcomes.of(condition, arguments, CAP));
            }
            return String.join(" ", found);
        });

        assertThat(outcomes).as("%s: outcomes of eq neq in not_in lt lte gt gte regex contains exists max_length", name)
                .isEqualTo(expected);
    }

    static Stream<Arguments> deepPolicyValues() {
        return Stream.of(Arguments.of(Op.EQ, Hostile.deep(Hostile.DEPTH), "T"), Arguments.of(Op.NEQ, Hostile.deep(Hostile.DEPTH), "F"),
                Arguments.of(Op.IN, List.of(1, Hostile.deep(Hostile.DEPTH)), "T"),
                Arguments.of(Op.NOT_IN, List.of(Hostile.deep(Hostile.DEPTH)), "F"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("deepPolicyValues")
    void comparesDeepArgumentsWithDeepPolicyValuesIteratively(Op op, Object value, String expected) {
        String outcome = Hostile.onSmallStack(() ->
                Outcomes.of(new Condition("a", op, value), Map.of("a", Hostile.deep(Hostile.DEPTH)), CAP));

        assertThat(outcome).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileArguments")
    void aHostileValueBesideThePathIsNeverInspected(String name, Object argument, String ignored) {
        Map<String, Object> arguments = Map.of("a", "ls", "other", argument);

        String outcomes = Hostile.onSmallStack(() -> {
            List<String> found = new ArrayList<>();
            for (Condition condition : CONDITIONS) {
                found.add(Outcomes.of(condition, arguments, CAP));
            }
            return String.join(" ", found);
        });

        assertThat(outcomes).as("\"ls\" is not a number: the comparisons cannot check it").isEqualTo("T F T F U U U U F F T T");
    }
}
