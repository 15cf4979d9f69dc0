package dev.mcppolicy.cli;

import dev.mcppolicy.policy.PolicyError;
import dev.mcppolicy.policy.internal.Node;
import dev.mcppolicy.policy.internal.TreeReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads JSON given on the command line. */
final class Json {
    private Json() {
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String text, String what) {
        List<PolicyError> errors = new ArrayList<>();
        Node node = new TreeReader(errors).read(text, TreeReader.Format.JSON);
        if (!errors.isEmpty()) {
            throw new PolicyCli.UsageException(what + " is not valid JSON: " + errors.get(0).message());
        }
        if (!node.is(Node.Kind.OBJECT)) {
            throw new PolicyCli.UsageException(what + " must be a JSON object, got " + node.describe());
        }
        return (Map<String, Object>) node.toPlain();
    }
}
