package dev.mcppolicy.policy;

import java.time.Duration;

/**
 * Durations the way policy files write them: {@code second|minute|hour|day}, a number of seconds
 * ({@code 60}), or {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d}.
 */
public final class Durations {
    /** The longest duration a policy may name: rate limiting counts windows in nanoseconds (about 292 years). */
    public static final Duration MAX = Duration.ofSeconds(Long.MAX_VALUE / 1_000_000_000L);

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

    /** The duration {@code text} names, or {@code null} when it names none (or zero, or more than {@link #MAX}). */
    public static Duration parse(String text) {
        switch (text) {
            case "second": return Duration.ofSeconds(1);
            case "minute": return Duration.ofMinutes(1);
            case "hour": return Duration.ofHours(1);
            case "day": return Duration.ofDays(1);
            default: break;
        }
        if (text.isEmpty() || text.length() > 12) {
            return null;
        }
        char unit = text.charAt(text.length() - 1);
        String digits = Character.isDigit(unit) ? text : text.substring(0, text.length() - 1);
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        long amount = Long.parseLong(digits);
        if (amount < 1) {
            return null;
        }
        Duration duration;
        switch (unit) {
            case 's': duration = Duration.ofSeconds(amount); break;
            case 'm': duration = Duration.ofMinutes(amount); break;
            case 'h': duration = Duration.ofHours(amount); break;
            case 'd': duration = Duration.ofDays(amount); break;
            default: duration = Character.isDigit(unit) ? Duration.ofSeconds(amount) : null;
        }
        return duration == null || duration.compareTo(MAX) > 0 ? null : duration;
    }
}
