package dev.mcppolicy.agent.approval;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.ToolCall;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The calls held for approval (SPEC §6) and their outcomes. A held call waits on its
 * {@link PendingCall#outcome()} future, never on a thread; one daemon timer thread, started at the first
 * hold, ends each wait at its timeout. At most {@code maxPending} calls are held at once.
 *
 * <p>An id names exactly one held call and is spent by its outcome: deciding it again, or after it timed
 * out or was cancelled, is {@link Answer#ALREADY_DECIDED}; an id never issued is {@link Answer#UNKNOWN}.
 */
public final class Approvals {
    public static final int DEFAULT_MAX_PENDING = 100;
    /** The channel words an outcome names. */
    public static final String ADMIN = "admin";
    public static final String ELICITATION = "elicitation";
    /** How many spent ids are remembered, to tell "already decided" from "unknown". */
    private static final int REMEMBERED = 1_000;

    private final int maxPending;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, PendingCall> pending = new ConcurrentHashMap<>();
    private final Map<String, Outcome> spent = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Outcome> eldest) {
            return size() > REMEMBERED;
        }
    };
    private volatile ScheduledExecutorService timer;
    private volatile boolean channel;

    public Approvals(int maxPending, Clock clock) {
        this.maxPending = maxPending;
        this.clock = clock;
    }

    /** The admin endpoint is up: calls that need approval are held from now on (before, they are denied). */
    public void openChannel() {
        channel = true;
    }

    /** Whether a person can be asked: the admin endpoint (the approval channel) is up. */
    public boolean hasChannel() {
        return channel;
    }

    /** What an approve or deny did. */
    public enum Answer { DECIDED, UNKNOWN, ALREADY_DECIDED }

    /**
     * Holds {@code call}, which {@code held} (a {@code REQUIRE_APPROVAL} decision) says needs approval;
     * {@code null} when {@code maxPending} calls are held already (the caller denies it).
     */
    public PendingCall hold(ToolCall call, Decision held, Duration timeout, String policySha256, boolean showArguments) {
        return hold(call, held, timeout, policySha256, showArguments, null);
    }

    /**
     * {@link #hold(ToolCall, Decision, Duration, String, boolean)} for a rule that asks {@code via: elicitation}:
     * {@code via} says where it is asked ({@code elicitation}, or {@code admin} when its client cannot be), and
     * each outcome then names the channel that decided it.
     */
    public PendingCall hold(ToolCall call, Decision held, Duration timeout, String policySha256, boolean showArguments, String via) {
        synchronized (pending) {
            if (pending.size() >= maxPending) {
                return null;
            }
            PendingCall entry = new PendingCall(newId(), call, held, policySha256, clock.instant(), timeout, showArguments, via);
            pending.put(entry.id(), entry);
            entry.timeoutTask = timer().schedule(() -> end(entry, Outcome.Kind.TIMED_OUT, null,
                    "approval timed out after " + words(timeout), null), timeout.toMillis(), TimeUnit.MILLISECONDS);
            return entry;
        }
    }

    /**
     * Runs {@code task} every {@code every} on the timer thread while {@code entry} is held (for progress
     * notifications that keep the caller's request timeout from firing); a task that throws is not run again.
     */
    public void whileHeld(PendingCall entry, Duration every, Runnable task) {
        java.util.concurrent.Future<?> repeating = timer().scheduleAtFixedRate(task, every.toMillis(), every.toMillis(),
                TimeUnit.MILLISECONDS);
        entry.outcome().whenComplete((outcome, error) -> repeating.cancel(false));
    }

    /** The held calls, oldest first. */
    public List<PendingCall> pending() {
        List<PendingCall> list = new ArrayList<>(pending.values());
        list.sort(Comparator.comparing(PendingCall::askedAt).thenComparing(PendingCall::id));
        return list;
    }

    public PendingCall get(String id) {
        return pending.get(id);
    }

    /** Approves a held call through the admin channel. */
    public Answer approve(String id, String approver, String reason) {
        return approve(id, approver, reason, ADMIN);
    }

    /** Approves a held call through {@code via} ({@code admin} or {@code elicitation}): whichever decides first wins. */
    public Answer approve(String id, String approver, String reason, String via) {
        return decide(id, Outcome.Kind.APPROVED, approver, reason, via);
    }

    /** Denies a held call through the admin channel; the caller reads {@code reason} (or "approval denied by ..."). */
    public Answer deny(String id, String approver, String reason) {
        return deny(id, approver, reason, ADMIN);
    }

    /** Denies a held call through {@code via}; the caller reads {@code reason} (or "approval denied by ..."). */
    public Answer deny(String id, String approver, String reason, String via) {
        String text = reason == null || reason.isBlank() ? "approval denied" + (approver == null ? "" : " by " + approver)
                : "approval denied" + (approver == null ? "" : " by " + approver) + ": " + reason;
        return decide(id, Outcome.Kind.DENIED, approver, text, via);
    }

    /**
     * The caller gave up (it cancelled the request or closed the session): the entry goes away. The
     * outcome, or {@code null} when the call had been decided already.
     */
    public Outcome cancel(String id, String why) {
        PendingCall entry = pending.get(id);
        if (entry != null && end(entry, Outcome.Kind.CANCELLED, null, why, null)) {
            return entry.outcome().getNow(null);
        }
        return null;
    }

    private Answer decide(String id, Outcome.Kind kind, String approver, String reason, String via) {
        PendingCall entry = id == null ? null : pending.get(id);
        if (entry == null) {
            synchronized (spent) {
                return spent.containsKey(id) ? Answer.ALREADY_DECIDED : Answer.UNKNOWN;
            }
        }
        return end(entry, kind, approver, reason, via) ? Answer.DECIDED : Answer.ALREADY_DECIDED;
    }

    /** {@code via} is named in the outcome only for a call whose rule asks {@code via: elicitation}. */
    private boolean end(PendingCall entry, Outcome.Kind kind, String approver, String reason, String via) {
        long waited = Math.max(0, clock.millis() - entry.askedAt().toEpochMilli());
        Outcome outcome = new Outcome(kind, approver, reason, waited, entry.via() == null ? null : via);
        synchronized (pending) {
            if (pending.get(entry.id()) != entry) {
                return false;
            }
            pending.remove(entry.id());
        }
        java.util.concurrent.Future<?> task = entry.timeoutTask;
        if (task != null && kind != Outcome.Kind.TIMED_OUT) {
            task.cancel(false);
        }
        synchronized (spent) {
            spent.put(entry.id(), outcome);
        }
        return entry.complete(outcome);
    }

    private ScheduledExecutorService timer() {
        ScheduledExecutorService current = timer;
        if (current == null) {
            synchronized (this) {
                current = timer;
                if (current == null) {
                    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
                        Thread thread = new Thread(task, "mcp-policy-approvals");
                        thread.setDaemon(true);
                        return thread;
                    });
                    executor.setRemoveOnCancelPolicy(true);
                    current = executor;
                    timer = current;
                }
            }
        }
        return current;
    }

    private String newId() {
        byte[] bytes = new byte[8];
        random.nextBytes(bytes);
        StringBuilder id = new StringBuilder(16);
        for (byte b : bytes) {
            id.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return id.toString();
    }

    /** {@code 5m}, {@code 90s}, {@code 1500ms}: as a policy would write the timeout. */
    static String words(Duration timeout) {
        long millis = timeout.toMillis();
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1_000 == 0) {
            return millis / 1_000 + "s";
        }
        return millis + "ms";
    }
}
