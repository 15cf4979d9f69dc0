package dev.mcppolicy.demo.sandbox;

/** A caller's path that would lead outside the sandbox; the tool answers it as a tool error. */
public final class SandboxEscapeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SandboxEscapeException(String path, String why) {
        super("path '" + path + "' is rejected: " + why);
    }
}
