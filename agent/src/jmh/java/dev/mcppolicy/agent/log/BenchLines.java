package dev.mcppolicy.agent.log;

import dev.mcppolicy.agent.status.StartupSummary;

/** The decision line as the agent makes it, into a sink that keeps the last line (so the JIT cannot drop the work). */
public final class BenchLines implements DecisionSink {
    /** The last line written; read by nobody, written so that making it is not dead code. */
    public String last;

    private BenchLines() {
    }

    /** A {@code DecisionLine} (the listener {@code log=app} installs) writing to a sink that keeps the last line. */
    public static DecisionListener kept() {
        return new DecisionLine(new BenchLines(), new StartupSummary());
    }

    @Override
    public void accept(boolean denied, String line) {
        last = line;
    }

    @Override
    public String describe() {
        return "benchmark";
    }
}
