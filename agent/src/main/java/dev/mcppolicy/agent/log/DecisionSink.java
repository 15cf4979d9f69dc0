package dev.mcppolicy.agent.log;

/** One way out for decision lines: the app's logger, stderr, or nowhere. */
interface DecisionSink {
    String LOGGER_NAME = "mcp.policy";

    /** Writes one line: WARN when the call was denied, else INFO (SPEC §8). */
    void accept(boolean denied, String line);

    String describe();

    static DecisionSink stderr() {
        return new DecisionSink() {
            @Override
            public void accept(boolean denied, String line) {
                System.err.println(line);
            }

            @Override
            public String describe() {
                return "stderr";
            }
        };
    }

    static DecisionSink off() {
        return new DecisionSink() {
            @Override
            public void accept(boolean denied, String line) {
            }

            @Override
            public String describe() {
                return "off";
            }
        };
    }

    /**
     * JUL (the JDK's logging, whose default console handler writes to stderr). The source is given
     * explicitly so that the line names the logger, not an agent class JUL would guess as the caller.
     */
    static DecisionSink jul() {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(LOGGER_NAME);
        return new DecisionSink() {
            @Override
            public void accept(boolean denied, String line) {
                logger.logp(denied ? java.util.logging.Level.WARNING : java.util.logging.Level.INFO, LOGGER_NAME, "decision", line);
            }

            @Override
            public String describe() {
                return "java.util.logging '" + LOGGER_NAME + "'";
            }
        };
    }
}
