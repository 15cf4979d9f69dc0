package dev.mcppolicy.policy;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@code require_approval} call is put to a human: how long it waits before it is denied, and
 * through which channel it is asked.
 *
 * @param timeout how long the call waits ({@code approval.timeout}, default 5 minutes)
 * @param via where the person is asked ({@code approval.via}, default {@link Via#ADMIN})
 */
public record Approval(Duration timeout, Via via) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);
    public static final Approval DEFAULT = new Approval(DEFAULT_TIMEOUT);

    /** The channel a held call is asked through. */
    public enum Via {
        /** The agent's admin endpoint: its API, page and the {@code approvals} command. */
        ADMIN("admin"),
        /**
         * Server side: the MCP client's own user, through {@code elicitation/create}, when the client declared
         * that capability; the call is listed on the admin channel as well, and there alone otherwise.
         */
        ELICITATION("elicitation");

        private final String word;

        Via(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }
    }

    public Approval {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(via, "via");
    }

    /** Asked on the admin channel. */
    public Approval(Duration timeout) {
        this(timeout, Via.ADMIN);
    }
}
