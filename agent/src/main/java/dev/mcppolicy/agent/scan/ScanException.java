package dev.mcppolicy.agent.scan;

/** Why a scan stopped, as one line for the user, and the exit code it warrants. */
final class ScanException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The server could not be started or reached, exited, or answered with an error or with what is not MCP. */
    static final int SERVER = 1;
    /** The server did not answer within {@code --timeout}. */
    static final int TIMEOUT = 3;

    private final int exitCode;

    ScanException(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
