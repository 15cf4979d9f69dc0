package dev.mcppolicy.log;

/**
 * What a decision line says about an approval (SPEC §6): the hold itself ({@code decision=HOLD
 * approval_id=...}) or how it ended ({@code approval=approved approver=alice waited_ms=...}).
 *
 * @param id the pending approval's id
 * @param outcome {@code null} for the hold; else {@code approved}, {@code denied}, {@code timed_out},
 *     {@code cancelled} or {@code too_many}
 * @param approver who decided, or {@code null}
 * @param waitedMillis how long the call was held (0 for the hold)
 * @param via for a rule that asks {@code via: elicitation}: on the hold, the channel the call was put to
 *     ({@code elicitation}, or {@code admin} when the client could not be asked); on the outcome, the channel
 *     that decided it ({@code null} for a timeout or a cancel). {@code null} for a rule that asks the admin
 *     channel alone, whose lines do not name it.
 */
public record ApprovalNote(String id, String outcome, String approver, long waitedMillis, String via) {
    public ApprovalNote(String id, String outcome, String approver, long waitedMillis) {
        this(id, outcome, approver, waitedMillis, null);
    }

    public static ApprovalNote held(String id) {
        return new ApprovalNote(id, null, null, 0, null);
    }

    /** The hold of a call put to {@code via}. */
    public static ApprovalNote held(String id, String via) {
        return new ApprovalNote(id, null, null, 0, via);
    }

    public boolean isHold() {
        return outcome == null;
    }
}
