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
 */
public record ApprovalNote(String id, String outcome, String approver, long waitedMillis) {
    public static ApprovalNote held(String id) {
        return new ApprovalNote(id, null, null, 0);
    }

    public boolean isHold() {
        return outcome == null;
    }
}
