package dev.mcppolicy.condition;

import static dev.mcppolicy.condition.ArgumentConditionTest.stop;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.condition.ArgumentCondition.Role;
import dev.mcppolicy.condition.ArgumentCondition.Stop;
import dev.mcppolicy.json.JsonValues;
import dev.mcppolicy.policy.Condition;
import dev.mcppolicy.policy.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 9: a condition is never dodged by a value's type or shape. The op × type table below is the
 * rule docs/policy.md states, from both places a condition can sit ({@link Outcomes}: T the
 * condition holds, F it does not, U it cannot be checked and so stops the call as a {@code require} and
 * as a {@code deny_if}); no cell may be X (both let the call on).
 */
class SmugglingTest {
    private static final int CAP = 64 * 1024;
    private static final Object ABSENT = new Object();

    /** The columns of {@link #table}: one value of each JSON type, and the shapes that smuggle. */
    private static final List<Object> COLUMNS = Arrays.asList(
            "ls", "5000", 5000, true, null, List.of("ls"), List.of(5000), Map.of("k", "ls"), List.of(), ABSENT);

    static Stream<Arguments> table() {
        //                                                                 "ls" "5000" 5000 true null ["ls"] [5000] {k:ls} [] absent
        return Stream.of(
                row(Op.EQ, "ls",                                             "T    F      F    F    F    T      F      T      F  F"),
                row(Op.EQ, 5000,                                             "U    T      T    U    F    U      T      U      F  F"),
                row(Op.EQ, true,                                             "U    U      U    T    F    U      U      U      F  F"),
                row(Op.EQ, null,                                             "F    F      F    F    T    F      F      F      F  F"),
                row(Op.EQ, List.of("ls"),                                    "F    F      F    F    F    T      F      F      F  F"),
                row(Op.NEQ, "ls",                                            "F    T      T    T    F    F      T      F      F  F"),
                row(Op.NEQ, 5000,                                            "U    F      F    U    F    U      F      U      F  F"),
                row(Op.NEQ, null,                                            "T    T      T    T    F    T      T      T      T  F"),
                row(Op.IN, List.of("ls", 1),                                 "T    F      F    U    F    T      F      T      F  F"),
                row(Op.IN, List.of(5000),                                    "U    T      T    U    F    U      T      U      F  F"),
                row(Op.IN, Arrays.asList("x", null),                         "F    F      F    F    T    F      F      F      F  F"),
                row(Op.NOT_IN, List.of("ls", 1),                             "F    T      T    U    F    F      T      F      F  F"),
                row(Op.NOT_IN, List.of(5000),                                "U    F      F    U    F    U      F      U      F  F"),
                row(Op.GT, 1000,                                             "U    T      T    U    F    U      T      U      F  F"),
                row(Op.LTE, 1000,                                            "U    F      F    U    F    U      F      U      F  F"),
                row(Op.REGEX, "^l",                                          "T    F      F    F    F    T      F      T      F  F"),
                row(Op.REGEX, "^[0-9]+$",                                    "F    T      T    F    F    F      T      F      F  F"),
                row(Op.CONTAINS, "s",                                        "T    F      F    F    F    T      F      T      F  F"),
                row(Op.CONTAINS, 5000,                                       "U    T      T    U    F    U      T      U      F  F"),
                row(Op.MAX_LENGTH, 2,                                        "T    F      F    F    F    T      F      T      F  F"),
                row(Op.EXISTS, true,                                         "T    T      T    T    T    T      T      T      T  F"),
                row(Op.EXISTS, false,                                        "F    F      F    F    F    F      F      F      F  T"));
    }

    private static Arguments row(Op op, Object value, String outcomes) {
        return Arguments.of(op.word() + " " + JsonValues.typeName(value) + " " + value, new Condition("a", op, value),
                outcomes.trim().split(" +"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void everyOpOnEveryTypeHoldsFailsOrCannotBeChecked(String name, Condition condition, String[] expected) {
        List<String> found = new ArrayList<>();
        for (Object column : COLUMNS) {
            found.add(Outcomes.of(condition, column == ABSENT ? Map.of() : arguments(column), CAP));
        }

        assertThat(String.join(" ", found)).as(name + " on \"ls\" \"5000\" 5000 true null [\"ls\"] [5000] {k:ls} [] absent")
                .isEqualTo(String.join(" ", expected));
    }

    // --- numbers written as strings ---

    @ParameterizedTest
    @ValueSource(strings = {"5000", " 5000 ", "\t5000\n", "+5000", "5e3", "5E3", "5E+3", "5.0e3", "5000.0", "5000.",
            ".5e4", "0.5e4", "1001", "1e400", "Infinity", "+Infinity", "50000000000000000000000000000000000"})
    void aNumericStringAboveTheLimitIsDenied(String amount) {
        assertThat(Outcomes.of(new Condition("amount", Op.GT, 1000), Map.of("amount", amount), CAP)).isEqualTo("T");
        assertThat(Outcomes.of(new Condition("amount", Op.LTE, 1000), Map.of("amount", amount), CAP)).isEqualTo("F");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1000", "999.99", "-5000", "1e-5", "0", "0.5", "-0", "-Infinity", "1e-400"})
    void aNumericStringAtOrBelowTheLimitIsNot(String amount) {
        assertThat(Outcomes.of(new Condition("amount", Op.GT, 1000), Map.of("amount", amount), CAP)).isEqualTo("F");
        assertThat(Outcomes.of(new Condition("amount", Op.LTE, 1000), Map.of("amount", amount), CAP)).isEqualTo("T");
    }

    static Stream<Arguments> stringsThatAreNotNumbers() {
        return Stream.of(
                Arguments.of("lots", Readings.NOT_A_NUMBER),
                Arguments.of("", Readings.NOT_A_NUMBER),
                Arguments.of("   ", Readings.NOT_A_NUMBER),
                Arguments.of("0x1388", Readings.NOT_A_NUMBER),
                Arguments.of("5_000", Readings.NOT_A_NUMBER),
                Arguments.of("5 000", Readings.NOT_A_NUMBER),
                Arguments.of("5000d", Readings.NOT_A_NUMBER),
                Arguments.of("5000L", Readings.NOT_A_NUMBER),
                Arguments.of("5e", Readings.NOT_A_NUMBER),
                Arguments.of("e5", Readings.NOT_A_NUMBER),
                Arguments.of("+", Readings.NOT_A_NUMBER),
                Arguments.of(".", Readings.NOT_A_NUMBER),
                Arguments.of("1.2.3", Readings.NOT_A_NUMBER),
                Arguments.of("inf", Readings.NOT_A_NUMBER),
                Arguments.of("\u00a05000", Readings.NOT_A_NUMBER),
                Arguments.of("\uff15\uff10\uff10\uff10", Readings.NOT_A_NUMBER),
                Arguments.of("\u0665\u0660\u0660\u0660", Readings.NOT_A_NUMBER),
                Arguments.of("010", Readings.LEADING_ZERO),
                Arguments.of("-00", Readings.LEADING_ZERO),
                Arguments.of("NaN", Readings.NAN),
                Arguments.of("1e99999999999", Readings.NUMBER_OUT_OF_RANGE),
                Arguments.of("1".repeat(1001), Readings.NUMBER_TOO_LONG),
                Arguments.of("x".repeat(1001), Readings.NOT_A_NUMBER));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("stringsThatAreNotNumbers")
    void aStringANumericOpCannotReadStopsTheCallEitherWay(String amount, String problem) {
        Condition condition = new Condition("amount", Op.GT, 1000);
        Map<String, Object> arguments = Map.of("amount", amount);

        assertThat(Outcomes.of(condition, arguments, CAP)).isEqualTo("U");
        assertThat(stop(condition, Role.DENY_IF, arguments, CAP)).isEqualTo(new Stop("args.amount", "args.amount: " + problem));
        assertThat(stop(condition, Role.REQUIRE, arguments, CAP)).isEqualTo(new Stop("args.amount", "args.amount: " + problem));
    }

    @Test
    void theIssuesExamplesAreDenied() {
        Condition amount = new Condition("amount", Op.GT, 1000);
        assertThat(stop(amount, Role.DENY_IF, Map.of("amount", 5000), CAP)).isEqualTo(new Stop("args.amount", null));
        assertThat(stop(amount, Role.DENY_IF, Map.of("amount", "5000"), CAP)).isEqualTo(new Stop("args.amount", null));
        assertThat(stop(amount, Role.DENY_IF, Map.of("amount", "5e3"), CAP)).isEqualTo(new Stop("args.amount", null));
        assertThat(stop(amount, Role.DENY_IF, Map.of("amount", List.of(5000)), CAP))
                .isEqualTo(new Stop("args.amount.0", "at args.amount.0"));

        Condition command = new Condition("command", Op.CONTAINS, "rm -rf");
        assertThat(stop(command, Role.DENY_IF, Map.of("command", "rm -rf /"), CAP)).isEqualTo(new Stop("args.command", null));
        assertThat(stop(command, Role.DENY_IF, Map.of("command", List.of("rm -rf /")), CAP))
                .isEqualTo(new Stop("args.command.0", "at args.command.0"));
    }

    @Test
    void numericOperandsOfEqAndInReadNumericStringsToo() {
        assertThat(Outcomes.of(new Condition("n", Op.EQ, 5000), Map.of("n", "5e3"), CAP)).isEqualTo("T");
        assertThat(Outcomes.of(new Condition("n", Op.IN, List.of(1, 5000)), Map.of("n", " 5000 "), CAP)).isEqualTo("T");
        assertThat(Outcomes.of(new Condition("n", Op.NEQ, 0), Map.of("n", "0.0"), CAP)).isEqualTo("F");
        assertThat(Outcomes.of(new Condition("n", Op.NOT_IN, List.of(0)), Map.of("n", "-0"), CAP)).isEqualTo("F");
    }

    @Test
    void aStringOperandReadsANumberOrBooleanAsItsText() {
        assertThat(Outcomes.of(new Condition("id", Op.EQ, "42"), Map.of("id", 42), CAP)).isEqualTo("T");
        assertThat(Outcomes.of(new Condition("id", Op.EQ, "42"), Map.of("id", 42.0), CAP)).as("42.0 reads as 42").isEqualTo("T");
        assertThat(Outcomes.of(new Condition("id", Op.IN, List.of("true")), Map.of("id", true), CAP)).isEqualTo("T");
        assertThat(Outcomes.of(new Condition("id", Op.REGEX, "^4"), Map.of("id", 42L), CAP)).isEqualTo("T");
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "TRUE", " True "})
    void aBooleanOperandReadsTrueWhateverItsCase(String flag) {
        assertThat(Outcomes.of(new Condition("force", Op.EQ, true), Map.of("force", flag), CAP)).isEqualTo("T");
        assertThat(Outcomes.of(new Condition("force", Op.EQ, false), Map.of("force", flag), CAP)).isEqualTo("F");
    }

    @Test
    void aBooleanOperandReadsZeroAndOneAndNothingElse() {
        Condition force = new Condition("force", Op.EQ, true);
        assertThat(Outcomes.of(force, Map.of("force", 1), CAP)).isEqualTo("T");
        assertThat(Outcomes.of(force, Map.of("force", 0.0), CAP)).isEqualTo("F");
        assertThat(Outcomes.of(force, Map.of("force", 2), CAP)).isEqualTo("U");
        assertThat(Outcomes.of(force, Map.of("force", "yes"), CAP)).isEqualTo("U");
        assertThat(stop(force, Role.DENY_IF, Map.of("force", "yes"), CAP).detail())
                .isEqualTo("args.force: " + Readings.NOT_A_BOOLEAN_STRING);
        assertThat(stop(force, Role.DENY_IF, Map.of("force", 2), CAP).detail()).isEqualTo("args.force: " + Readings.NOT_A_BOOLEAN_NUMBER);
    }

    @Test
    void aBooleanOrNaNANumericOpCannotReadSaysSo() {
        Condition amount = new Condition("amount", Op.GT, 1000);
        assertThat(stop(amount, Role.DENY_IF, Map.of("amount", true), CAP).detail())
                .isEqualTo("args.amount: " + Readings.BOOLEAN_NOT_A_NUMBER);
        assertThat(stop(amount, Role.REQUIRE, Map.of("amount", Double.NaN), CAP).detail()).isEqualTo("args.amount: " + Readings.NAN);
        assertThat(stop(amount, Role.DENY_IF, Map.of("amount", new StringBuilder("5000")), CAP).detail())
                .isEqualTo("args.amount: a value of Java type java.lang.StringBuilder cannot be checked");
    }

    // --- arrays and objects ---

    @Test
    void aDenyIfFindsTheLeafAtAnyDepthAndNamesIt() {
        Condition command = new Condition("command", Op.CONTAINS, "rm -rf");
        Map<String, Object> nested = Map.of("command", List.of(List.of("ls", Map.of("then", "rm -rf /"))));

        assertThat(stop(command, Role.DENY_IF, nested, CAP)).isEqualTo(new Stop("args.command.0.1.then", "at args.command.0.1.then"));
        assertThat(stop(new Condition("args.command", Op.CONTAINS, "rm -rf"), Role.DENY_IF, nested, CAP).argument())
                .as("a leading args. is not doubled").isEqualTo("args.command.0.1.then");
    }

    @Test
    void aKeyThatIsNotAPlainWordIsQuotedAndEscapedInThePath() {
        Condition command = new Condition("command", Op.CONTAINS, "rm -rf");

        assertThat(stop(command, Role.DENY_IF, Map.of("command", Map.of("a.b", "rm -rf /")), CAP).argument())
                .isEqualTo("args.command[\"a.b\"]");
        assertThat(stop(command, Role.DENY_IF, Map.of("command", Map.of("x\n\u202e\"", "rm -rf /")), CAP).argument())
                .isEqualTo("args.command[\"x\\n\\u202e\\\"\"]");
        assertThat(stop(command, Role.DENY_IF, Map.of("command", Map.of("", "rm -rf /")), CAP).argument())
                .isEqualTo("args.command[\"\"]");
    }

    @Test
    void aRequireHoldsOnlyWhenEveryLeafHoldsAndNamesTheFirstThatDoesNot() {
        Condition command = new Condition("command", Op.REGEX, "^(ls|cat)$");

        assertThat(stop(command, Role.REQUIRE, Map.of("command", List.of("ls", "cat")), CAP)).isNull();
        assertThat(stop(command, Role.REQUIRE, Map.of("command", List.of("ls", "rm", "cat")), CAP))
                .isEqualTo(new Stop("args.command.1", "at args.command.1"));
        assertThat(stop(command, Role.REQUIRE, Map.of("command", Map.of("a", List.of("ls", 7))), CAP))
                .isEqualTo(new Stop("args.command.a.1", "at args.command.a.1"));
    }

    @Test
    void containsInARequireHoldsWhenAnyLeafContainsIt() {
        Condition tags = new Condition("tags", Op.CONTAINS, "approved");

        assertThat(stop(tags, Role.REQUIRE, Map.of("tags", List.of("x", "approved")), CAP)).isNull();
        assertThat(stop(tags, Role.REQUIRE, Map.of("tags", List.of("x", "y")), CAP)).isEqualTo(new Stop("args.tags", null));
        assertThat(stop(new Condition("ids", Op.CONTAINS, 7), Role.REQUIRE, Map.of("ids", List.of("x", "7")), CAP))
                .as("a leaf it cannot read is passed over").isNull();
        assertThat(stop(new Condition("ids", Op.CONTAINS, 7), Role.DENY_IF, Map.of("ids", List.of("x", 8)), CAP))
                .as("but in a deny_if it cannot be checked").isEqualTo(new Stop("args.ids.0", "args.ids.0: " + Readings.NOT_A_NUMBER));
    }

    @Test
    void aDenyIfTestsAFlatArraysItemsJoinedWithSpaces() {
        Condition command = new Condition("command", Op.CONTAINS, "rm -rf");
        Stop joined = new Stop("args.command", "at args.command, its items joined with spaces");

        assertThat(stop(command, Role.DENY_IF, Map.of("command", List.of("rm", "-rf", "/")), CAP)).isEqualTo(joined);
        assertThat(stop(command, Role.DENY_IF, Map.of("command", Arrays.asList("rm", null, "-rf")), CAP))
                .as("nulls left out").isEqualTo(joined);
        assertThat(stop(new Condition("command", Op.REGEX, "^rm -rf"), Role.DENY_IF, Map.of("command", List.of("rm", "-rf")), CAP))
                .isEqualTo(joined);
        assertThat(stop(new Condition("command", Op.NEQ, "ls -la"), Role.DENY_IF, Map.of("command", List.of("ls", "-la")), CAP))
                .as("neq: each item differs from the text").isEqualTo(new Stop("args.command.0", "at args.command.0"));
        assertThat(stop(command, Role.DENY_IF, Map.of("command", List.of("rm", List.of("-rf"))), CAP))
                .as("an array holding an array is not joined").isNull();
        assertThat(stop(command, Role.DENY_IF, Map.of("command", Map.of("a", "rm", "b", "-rf")), CAP))
                .as("an object is not joined").isNull();
        assertThat(stop(new Condition("n", Op.GT, 10), Role.DENY_IF, Map.of("n", List.of(1, 2)), CAP))
                .as("a numeric op does not join").isNull();
    }

    @Test
    void aTextWithoutSpacesIsFoundInTheItemItLiesIn() {
        // such a text cannot span the spaces that join the items, so the items alone decide
        assertThat(stop(new Condition("command", Op.CONTAINS, "-rf"), Role.DENY_IF, Map.of("command", List.of("rm", "-rf")), CAP))
                .isEqualTo(new Stop("args.command.1", "at args.command.1"));
        assertThat(stop(new Condition("command", Op.CONTAINS, ";"), Role.DENY_IF, Map.of("command", List.of("ls", "x")), CAP)).isNull();
    }

    @Test
    void aRequireDoesNotJoinSoArgvAllowListsWork() {
        Condition argv = new Condition("argv", Op.REGEX, "^[a-z-]+$");

        assertThat(stop(argv, Role.REQUIRE, Map.of("argv", List.of("ls", "-la")), CAP)).isNull();
        assertThat(stop(argv, Role.REQUIRE, Map.of("argv", List.of("ls", "-la; rm")), CAP))
                .isEqualTo(new Stop("args.argv.1", "at args.argv.1"));
    }

    @Test
    void nullsAndEmptyContainersHoldNothing() {
        Condition command = new Condition("command", Op.CONTAINS, "rm");
        Map<String, Object> nullCommand = new HashMap<>();
        nullCommand.put("command", null);

        for (Map<String, ?> arguments : List.of(nullCommand, Map.of("command", List.of()), Map.of("command", Map.of()),
                Map.of("command", List.of(List.of(), Map.of())), Map.of("command", Collections.singletonList(null)))) {
            assertThat(Outcomes.of(command, arguments, CAP)).as("%s", arguments).isEqualTo("F");
            assertThat(Outcomes.of(new Condition("command", Op.GT, 1), arguments, CAP)).as("%s", arguments).isEqualTo("F");
        }
    }

    @Test
    void aValueTooDeepOrTooWideCannotBeChecked() {
        Object deep = "rm -rf /";
        for (int i = 0; i < ArgumentCondition.MAX_DEPTH; i++) {
            deep = List.of(deep);
        }
        Condition command = new Condition("command", Op.CONTAINS, "rm -rf");
        assertThat(stop(command, Role.DENY_IF, Map.of("command", deep), CAP).argument())
                .as("%d levels are searched", ArgumentCondition.MAX_DEPTH).startsWith("args.command.0.0.0");
        Map<String, Object> tooDeep = Map.of("command", List.of(deep));
        assertThat(Outcomes.of(command, tooDeep, CAP)).isEqualTo("U");
        assertThat(stop(command, Role.REQUIRE, tooDeep, CAP))
                .isEqualTo(new Stop("args.command", "args.command: a value nested more than 32 levels deep cannot be checked"));

        List<Object> wide = new ArrayList<>(Collections.nCopies(ArgumentCondition.MAX_NODES, "ls"));
        assertThat(Outcomes.of(command, Map.of("command", wide), CAP)).isEqualTo("U");
        assertThat(stop(command, Role.DENY_IF, Map.of("command", wide), CAP).detail())
                .isEqualTo("args.command: a value with more than 10000 items cannot be checked");
        assertThat(Outcomes.of(command, Map.of("command", wide.subList(0, ArgumentCondition.MAX_NODES - 1)), CAP))
                .as("the array and its items: 10,000 values").isEqualTo("F");
    }

    @Test
    void aWideObjectIsSearchedInItsOwnOrder() {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("PATH", "/bin");
        env.put("LD_PRELOAD", "/tmp/evil.so");
        Condition noPreload = new Condition("env", Op.REGEX, "^/tmp/");

        assertThat(stop(noPreload, Role.DENY_IF, Map.of("env", env), CAP)).isEqualTo(new Stop("args.env.LD_PRELOAD", "at args.env.LD_PRELOAD"));
    }

    private static Map<String, Object> arguments(Object value) {
        Map<String, Object> arguments = new HashMap<>();
        arguments.put("a", value);
        return arguments;
    }
}
