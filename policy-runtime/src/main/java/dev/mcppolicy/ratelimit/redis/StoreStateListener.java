package dev.mcppolicy.ratelimit.redis;

/** Told when a shared store becomes unavailable (Redis failed {@code failuresToOpen} times in a row) and available again. */
public interface StoreStateListener {
    StoreStateListener NONE = (available, detail) -> { };

    /**
     * Called once per change, never per call, on the thread of the call that failed or of the probe: must not block.
     *
     * @param available whether the store answers again ({@code true}) or now fails fast ({@code false})
     * @param detail why, for one log line (never a password)
     */
    void changed(boolean available, String detail);
}
