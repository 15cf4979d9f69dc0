package dev.mcppolicy.agent.approval;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.log.ApprovalNote;

/**
 * How a held call's wait ended.
 *
 * @param approver who decided ({@code null} for a timeout or a cancel)
 * @param reason the approver's reason, or what ended the wait
 * @param waitedMillis how long the call was held
 * @param via the channel that decided it ({@code admin} or {@code elicitation}) when its rule asks
 *     {@code via: elicitation}; {@code null} otherwise, and for a timeout or a cancel
 */
public record Outcome(Kind kind, String approver, String reason, long waitedMillis, String via) {
    public Outcome(Kind kind, String approver, String reason, long waitedMillis) {
        this(kind, approver, reason, waitedMillis, null);
    }

    public enum Kind {
        APPROVED("approved"), DENIED("denied"), TIMED_OUT("timed_out"), CANCELLED("cancelled");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }
    }

    /** The call's decision once the wait is over: allowed by the held rule, or denied with why. */
    public Decision decision(Decision held) {
        if (kind == Kind.APPROVED) {
            return new Decision(Effect.ALLOW, Effect.ALLOW, held.rule(), null, 0);
        }
        return new Decision(Effect.DENY, Effect.DENY, held.rule(), reason, 0);
    }

    /** What the decision line says about it. */
    public ApprovalNote note(String id) {
        return new ApprovalNote(id, kind.word(), approver, waitedMillis, via);
    }
}
