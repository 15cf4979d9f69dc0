package dev.mcppolicy.engine.internal;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.policy.Mode;

/** Builds decisions, turning denials into monitored allows where the mode says so. */
final class Decisions {
    private Decisions() {
    }

    static Decision deny(Mode mode, String rule, String reason, long retryAfterSeconds) {
        return deny(mode, rule, reason, retryAfterSeconds, null);
    }

    static Decision deny(Mode mode, String rule, String reason, long retryAfterSeconds, String argument) {
        Effect effect = mode == Mode.MONITOR ? Effect.ALLOW : Effect.DENY;
        return new Decision(effect, Effect.DENY, rule, reason, retryAfterSeconds, argument);
    }

    static Decision allow(String rule) {
        return new Decision(Effect.ALLOW, Effect.ALLOW, rule, null, 0);
    }
}
