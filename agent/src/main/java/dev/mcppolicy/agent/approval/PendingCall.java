package dev.mcppolicy.agent.approval;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.json.CanonicalJson;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One call held for approval (SPEC §6), bound to exactly that call: its id, tool, side and server,
 * session and client, argument keys and the SHA-256 of the arguments, the policy's hash and when it
 * was asked. An approval completes this one entry and no other, once.
 */
public final class PendingCall {
    private final String id;
    private final ToolCall call;
    private final Decision held;
    private final String policySha256;
    private final Instant askedAt;
    private final Duration timeout;
    private final boolean showArguments;
    private final String via;
    private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
    /** The timer's task that ends the wait at the timeout; cancelled when it ends otherwise. */
    volatile java.util.concurrent.Future<?> timeoutTask;

    PendingCall(String id, ToolCall call, Decision held, String policySha256, Instant askedAt, Duration timeout, boolean showArguments,
            String via) {
        this.id = id;
        this.call = call;
        this.held = held;
        this.policySha256 = policySha256;
        this.askedAt = askedAt;
        this.timeout = timeout;
        this.showArguments = showArguments;
        this.via = via;
    }

    public String id() {
        return id;
    }

    public ToolCall call() {
        return call;
    }

    /** The {@code REQUIRE_APPROVAL} decision that held it. */
    public Decision held() {
        return held;
    }

    public Instant askedAt() {
        return askedAt;
    }

    public Duration timeout() {
        return timeout;
    }

    /**
     * For a rule that asks {@code via: elicitation}: {@code elicitation} when the calling client's user was
     * asked, {@code admin} when the client could not be; {@code null} for a rule that asks the admin channel.
     */
    public String via() {
        return via;
    }

    /** Whether an approver may be shown the argument values ({@code log_arguments=true}). */
    public boolean showsArguments() {
        return showArguments;
    }

    public String policySha256() {
        return policySha256;
    }

    /** Completes once: approved, denied, timed out or cancelled. */
    public CompletableFuture<Outcome> outcome() {
        return outcome;
    }

    boolean complete(Outcome result) {
        return outcome.complete(result);
    }

    /**
     * What an approver is shown (the admin API's JSON): argument values only with {@code log_arguments=true},
     * else their keys and hash.
     */
    public Map<String, Object> describe() {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", id);
        view.put("tool", call.tool());
        view.put("side", call.side().word());
        view.put("server", call.server());
        view.put("rule", held.rule());
        view.put("session", call.sessionId());
        view.put("client", call.clientId());
        List<String> keys = new ArrayList<>();
        for (Object key : call.arguments().keySet()) {
            keys.add(String.valueOf(key));
        }
        Collections.sort(keys);
        view.put("arg_keys", keys);
        view.put("args_sha256", CanonicalJson.sha256(call.arguments()));
        if (showArguments) {
            view.put("args", CanonicalJson.write(call.arguments()));
        }
        view.put("policy_sha256", policySha256);
        view.put("asked_at", askedAt.toString());
        view.put("timeout_ms", timeout.toMillis());
        if (via != null) {
            view.put("via", via);
        }
        return view;
    }
}
