package dev.mcppolicy.policy;

import java.time.Duration;
import java.util.Objects;

/** How long a {@code require_approval} call waits for a human before it is denied. */
public record Approval(Duration timeout) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);
    public static final Approval DEFAULT = new Approval(DEFAULT_TIMEOUT);

    public Approval {
        Objects.requireNonNull(timeout, "timeout");
    }
}
