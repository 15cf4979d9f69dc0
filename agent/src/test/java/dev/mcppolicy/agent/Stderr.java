package dev.mcppolicy.agent;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What the agent prints on stderr while some code runs (its diagnostics go there, SPEC §8). */
public final class Stderr {
    private Stderr() {
    }

    public static String of(Runnable action) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return err.toString(StandardCharsets.UTF_8);
    }
}
