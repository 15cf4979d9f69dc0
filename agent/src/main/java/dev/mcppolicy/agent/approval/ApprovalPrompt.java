package dev.mcppolicy.agent.approval;

import dev.mcppolicy.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a held call's own MCP client is asked through elicitation ({@code approval.via: elicitation}), and how
 * its answer reads: the message and {@code requestedSchema} of the {@code elicitation/create} request, and
 * the approval or denial an {@code accept}, {@code decline} or {@code cancel} is.
 */
public final class ApprovalPrompt {
    /** The form's fields: a boolean {@code approve} (required) and a free-text {@code reason}. */
    public static final String APPROVE = "approve";
    public static final String REASON = "reason";
    /** The longest reason kept from a client's answer (it reaches the caller and the log). */
    static final int REASON_CAP = 500;

    private ApprovalPrompt() {
    }

    /**
     * The text the client's user reads: the tool, the rule, the argument values with {@code log_arguments=true}
     * (else their keys and SHA-256), the approval id, and how long it waits.
     */
    public static String message(PendingCall held) {
        StringBuilder text = new StringBuilder(256)
                .append("Approve the tool call '").append(held.call().tool()).append("'? The policy rule ")
                .append(held.held().rule()).append(" requires a person's approval.\n");
        List<String> keys = new ArrayList<>();
        for (Object key : held.call().arguments().keySet()) {
            keys.add(String.valueOf(key));
        }
        Collections.sort(keys);
        if (held.showsArguments()) {
            text.append("Arguments: ").append(CanonicalJson.write(held.call().arguments())).append('\n');
        } else {
            text.append("Argument keys: ").append(keys.isEmpty() ? "(none)" : String.join(", ", keys)).append('\n');
        }
        text.append("Arguments SHA-256: ").append(CanonicalJson.sha256(held.call().arguments())).append('\n')
                .append("Approval id: ").append(held.id()).append(". Unanswered, it is denied after ")
                .append(Approvals.words(held.timeout())).append(".\n")
                .append("Set approve to true to let it run once; false, decline or cancel denies it (the caller reads the reason).");
        return text.toString();
    }

    /**
     * {@code {"type":"object","properties":{"approve":{boolean},"reason":{string}},"required":["approve"]}}: flat
     * and primitive, as MCP elicitation allows.
     */
    public static Map<String, Object> requestedSchema() {
        Map<String, Object> approve = new LinkedHashMap<>();
        approve.put("type", "boolean");
        approve.put("title", "Approve");
        approve.put("description", "Let this one tool call run");
        Map<String, Object> reason = new LinkedHashMap<>();
        reason.put("type", "string");
        reason.put("title", "Reason");
        reason.put("description", "Optional; the caller reads it when the call is denied");
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(APPROVE, approve);
        properties.put(REASON, reason);
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", List.of(APPROVE));
        return schema;
    }

    /**
     * What the client's answer decides.
     *
     * @param approved only for {@code accept} with {@code approve} {@code true}
     * @param reason the user's {@code reason}, or what their answer was
     */
    public record Answer(boolean approved, String reason) {
    }

    /**
     * Reads an {@code ElicitResult}: {@code action} ({@code accept}, {@code decline} or {@code cancel}, any case)
     * and its {@code content}. Anything but {@code accept} with {@code approve: true} (or {@code "true"}) denies.
     */
    public static Answer answer(String action, Map<?, ?> content) {
        Object reasonValue = content == null ? null : content.get(REASON);
        String reason = reasonValue instanceof String text && !text.isBlank() ? text.strip() : null;
        if (reason != null && reason.length() > REASON_CAP) {
            reason = reason.substring(0, REASON_CAP) + "…";
        }
        String word = action == null ? "" : action.toLowerCase(java.util.Locale.ROOT);
        if (word.equals("accept")) {
            Object approve = content == null ? null : content.get(APPROVE);
            if (Boolean.TRUE.equals(approve) || "true".equals(approve)) {
                return new Answer(true, reason);
            }
            return new Answer(false, reason != null ? reason : "not approved in the client");
        }
        if (word.equals("decline")) {
            return new Answer(false, reason != null ? reason : "declined in the client");
        }
        if (word.equals("cancel")) {
            return new Answer(false, reason != null ? reason : "dismissed in the client");
        }
        return new Answer(false, reason != null ? reason : "the client answered '" + action + "'");
    }
}
