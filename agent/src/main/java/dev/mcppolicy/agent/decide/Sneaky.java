package dev.mcppolicy.agent.decide;

/**
 * Throws an exception a hooked method may throw but does not declare to Java (an SDK's checked {@code McpException}
 * from a Kotlin {@code suspend} method, what a call the hook sent threw), as it is: the caller sees the SDK's own.
 */
public final class Sneaky {
    private Sneaky() {
    }

    /** Throws {@code error}; declared to return so that a caller can write {@code throw Sneaky.rethrow(e)}. */
    public static RuntimeException rethrow(Throwable error) {
        return Sneaky.<RuntimeException>raise(error);
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException raise(Throwable error) throws T {
        throw (T) error;
    }
}
