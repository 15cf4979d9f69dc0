package dev.mcppolicy.engine.internal;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.policy.Mode;

/** Builds decisions, turning denials into monitored allows where the mode says so. */
final class Decisions {
    private Decisions() {
    }

    static Decision deny(Mode mode, String rule, String reason, long retryAfterSeconds) {
        Effect effect = mode == Mode.MONITOR ? Effect.ALLOW : Effect.DENY;
        return new Decision(effect, Effect.DENY, rule, reason, retryAfterSeconds);
    }

    static Decision allow(String rule) {
        return new Decision(Effect.ALLOW, Effect.ALLOW, rule, null, 0);
    }
}
