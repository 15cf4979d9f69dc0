package dev.mcppolicy.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.mcppolicy.Hostile;
import dev.mcppolicy.policy.PolicyError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The binder on trees the text readers do not build today (Jackson reads 1e400 as a double). */
class PolicyBinderTest {

    private static Node object(Object... keysAndValues) {
        Map<String, Node> fields = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            fields.put((String) keysAndValues[i], (Node) keysAndValues[i + 1]);
        }
        return Node.object(fields, 1, 1);
    }

    private static Node number(Number value) {
        return Node.scalar(Node.Kind.NUMBER, value, 1, 1);
    }

    @Test
    void aWindowOfADecimalWithAHugeExponentIsAnErrorWithoutExpandingIt() {
        Node limit = object("window", number(Hostile.HUGE_EXPONENT), "max", number(Hostile.HUGE_EXPONENT));
        Node root = object("version", Node.scalar(Node.Kind.STRING, "1", 1, 1),
                "tools", object("t", object("limits", Node.array(List.of(limit), 1, 1))));
        List<PolicyError> errors = new ArrayList<>();

        Hostile.runOnSmallStack(() -> new PolicyBinder(errors).bind(root, null));

        assertThat(errors).extracting(PolicyError::pointer, PolicyError::message).containsExactly(
                tuple("/tools/t/limits/0/window", "expected second|minute|hour|day, a whole "
                        + "number of seconds (60), or a duration like 30s, 5m, 1h, 1d; got the number 1E+400000000"),
                tuple("/tools/t/limits/0/max",
                        "expected a whole number of calls from 1 to 2147483647, got the number 1E+400000000"));
    }
}
