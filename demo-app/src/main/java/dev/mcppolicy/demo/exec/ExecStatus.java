package dev.mcppolicy.demo.exec;

import java.util.Locale;

/** Where a background exec is in its life. */
public enum ExecStatus {
    RUNNING, EXITED, KILLED, TIMED_OUT;

    /** The word tools return: {@code running}, {@code exited}, {@code killed}, {@code timed_out}. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
