package dev.mcppolicy.engine;

import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.PolicyParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Policies for tests: written inline as YAML or JSON, or loaded from test resources. */
public final class Policies {
    private Policies() {
    }

    public static Policy parse(String text) {
        try {
            return PolicyParser.parse(text, null, "test-policy");
        } catch (PolicyException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    public static Policy resource(String name) {
        try (InputStream in = Policies.class.getResourceAsStream("/policies/" + name)) {
            if (in == null) {
                throw new AssertionError("no test resource /policies/" + name);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return PolicyParser.parse(text, PolicyParser.formatOf(name), name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (PolicyException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }
}
