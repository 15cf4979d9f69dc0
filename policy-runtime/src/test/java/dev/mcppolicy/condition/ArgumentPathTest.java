package dev.mcppolicy.condition;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArgumentPathTest {
    private static final Map<String, Object> ARGS = Map.of(
            "command", "ls",
            "a", Map.of("b", List.of(Map.of("c", 1), Map.of("c", 2))),
            "options", List.of("x", List.of("y", "z")),
            "byName", Map.of("0", "zero"),
            "args", Map.of("inner", true));

    @Test
    void resolvesATopLevelKey() {
        assertThat(resolve("command")).isEqualTo("ls");
    }

    @Test
    void resolvesDotPathsThroughMapsAndListIndexes() {
        assertThat(resolve("a.b.0.c")).isEqualTo(1);
        assertThat(resolve("a.b.1.c")).isEqualTo(2);
        assertThat(resolve("options.1.0")).isEqualTo("y");
        assertThat(resolve("a.b")).isEqualTo(List.of(Map.of("c", 1), Map.of("c", 2)));
    }

    @Test
    void dropsALeadingArgsPrefixAsPolicyLayerWritesIt() {
        assertThat(resolve("args.command")).isEqualTo("ls");
        assertThat(resolve("args.a.b.0.c")).isEqualTo(1);
        assertThat(resolve("args.args.inner")).isEqualTo(true);
        assertThat(resolve("args.inner")).isSameAs(ArgumentPath.ABSENT);
    }

    @Test
    void readsANumericSegmentAsAMapKeyOnAMap() {
        assertThat(resolve("byName.0")).isEqualTo("zero");
    }

    @Test
    void isAbsentWhereThePathLeadsNowhere() {
        assertThat(resolve("missing")).isSameAs(ArgumentPath.ABSENT);
        assertThat(resolve("a.missing")).isSameAs(ArgumentPath.ABSENT);
        assertThat(resolve("a.b.2.c")).isSameAs(ArgumentPath.ABSENT);
        assertThat(resolve("a.b.x")).isSameAs(ArgumentPath.ABSENT);
        assertThat(resolve("a.b.-1")).isSameAs(ArgumentPath.ABSENT);
        assertThat(resolve("a.b.99999999999")).isSameAs(ArgumentPath.ABSENT);
        assertThat(resolve("command.length")).isSameAs(ArgumentPath.ABSENT);
        assertThat(resolve("command.0")).isSameAs(ArgumentPath.ABSENT);
    }

    @Test
    void tellsAPresentNullFromAnAbsentValue() {
        Map<String, Object> args = new HashMap<>();
        args.put("nothing", null);
        args.put("list", Arrays.asList(null, "x"));

        assertThat(ArgumentPath.parse("nothing").resolve(args)).isNull();
        assertThat(ArgumentPath.parse("list.0").resolve(args)).isNull();
        assertThat(ArgumentPath.parse("nothing.deeper").resolve(args)).isSameAs(ArgumentPath.ABSENT);
    }

    @Test
    void findsNothingInNoArguments() {
        assertThat(ArgumentPath.parse("a").resolve(Map.of())).isSameAs(ArgumentPath.ABSENT);
        assertThat(ArgumentPath.parse("a").resolve(null)).isSameAs(ArgumentPath.ABSENT);
    }

    @Test
    void dropsTheArgsPrefixOnceSoArgsArgsReachesAnArgumentNamedArgs() {
        Map<String, Object> arguments = Map.of("args", List.of("-la"), "command", "ls");

        assertThat(ArgumentPath.parse("args.args.0").resolve(arguments)).isEqualTo("-la");
        assertThat(ArgumentPath.parse("args.0").resolve(arguments)).as("args. is the prefix, not the argument").isSameAs(ArgumentPath.ABSENT);
        assertThat(ArgumentPath.parse("args.command").resolve(arguments)).isEqualTo("ls");
    }

    @Test
    void showsThePathAsWritten() {
        assertThat(ArgumentPath.parse("args.a.0")).hasToString("args.a.0");
        assertThat(ArgumentPath.ABSENT).hasToString("(absent)");
    }

    private static Object resolve(String path) {
        return ArgumentPath.parse(path).resolve(ARGS);
    }
}
