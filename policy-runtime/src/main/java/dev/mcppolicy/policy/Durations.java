package dev.mcppolicy.policy;

import java.time.Duration;

/** Formats durations the way policy files write them ({@code 30s}, {@code 5m}, {@code 1h}, {@code 1d}). */
public final class Durations {
    private Durations() {
    }

    public static String format(Duration duration) {
        long seconds = duration.getSeconds();
        if (duration.getNano() != 0) {
            return duration.toMillis() + "ms";
        }
        if (seconds != 0 && seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds != 0 && seconds % 3_600 == 0) {
            return seconds / 3_600 + "h";
        }
        if (seconds != 0 && seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
