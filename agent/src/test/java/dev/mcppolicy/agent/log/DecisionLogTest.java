package dev.mcppolicy.agent.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.Stderr;
import dev.mcppolicy.agent.config.AgentConfig.LogTarget;
import dev.mcppolicy.agent.status.StartupSummary;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.log.DecisionRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every decision goes to every listener, in order; a listener that throws is counted and reported, and stops nothing. */
class DecisionLogTest {
    private static final ToolCall CALL = new ToolCall(Side.SERVER, null, "echo", Map.of("text", "hi"), "s-1", "client-1", null);
    private static final Decision ALLOWED = new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/echo", null, 0);
    /** An SDK loader with no Micrometer behind it (the test class path has one), so only the listeners write. */
    private static final ClassLoader SDK = new java.net.URLClassLoader(new java.net.URL[0], ClassLoader.getPlatformClassLoader());

    private final List<String> told = new ArrayList<>();

    @Test
    void listenersAreToldInOrderWithOneRecordAndTheSdkLoader() {
        List<DecisionRecord> records = new ArrayList<>();
        DecisionLog log = new DecisionLog(List.of(recording("first", records), recording("second", records)), true);

        log.record(CALL, ALLOWED, 7, SDK);

        assertThat(told).containsExactly("first echo", "second echo");
        assertThat(records).hasSize(2);
        assertThat(records.get(0)).isSameAs(records.get(1));
        assertThat(records.get(0).decision()).isSameAs(ALLOWED);
        assertThat(records.get(0).tookMicros()).isEqualTo(7);
        assertThat(records.get(0).toLine()).as("log_arguments reaches the record").contains("args=");
    }

    @Test
    void logUserHashShowsTheVerifiedSubjectsHashNeverTheSubject() {
        List<DecisionRecord> records = new ArrayList<>();
        ToolCall byAlice = CALL.withCaller(dev.mcppolicy.engine.Caller.verified("alice@example.com", null, List.of(), Map.of()));
        new DecisionLog(List.of(recording("plain", records)), false).record(byAlice, ALLOWED, 1, SDK);
        new DecisionLog(List.of(recording("hash", records)), false).hashingUsers(true).record(byAlice, ALLOWED, 1, SDK);
        assertThat(records.get(0).toLine()).contains(" user=alice@example.com ");
        assertThat(records.get(1).toLine()).containsPattern(" user=sha256:[0-9a-f]{64} ").doesNotContain("alice");
        assertThat(records.get(1).toJson()).doesNotContain("alice");
    }

    @Test
    void theClockIsReadOnlyWhenAListenerReadsTheTime() {
        List<DecisionRecord> records = new ArrayList<>();
        DecisionListener lineLike = new DecisionListener() {
            @Override
            public void decided(DecisionRecord record, ClassLoader sdkLoader) {
                records.add(record);
            }

            @Override
            public boolean readsTime() {
                return false;
            }
        };
        new DecisionLog(List.of(lineLike), false).record(CALL, ALLOWED, 1, SDK);
        assertThat(records.get(0).at()).as("a log with the line alone reads no clock").isNull();
        assertThat(records.get(0).toLine()).startsWith("mcp-policy decision=ALLOW tool=echo");
        assertThat(records.get(0).toJson()).as("a JSON form made anyway takes its own time").contains("\"ts\":\"20");

        java.time.Instant before = java.time.Instant.now();
        new DecisionLog(List.of(lineLike, recording("audit-like", records)), false).record(CALL, ALLOWED, 1, SDK);
        assertThat(records.get(1).at()).as("one listener that reads the time is enough").isNotNull().isAfterOrEqualTo(before);
        assertThat(new DecisionLine(null, new StartupSummary()).readsTime()).isFalse();
    }

    @Test
    void aThrowingListenerStopsNeitherTheOthersNorTheCallAndIsCountedAndReportedOnce() {
        String name = "throwing listener " + System.nanoTime();
        DecisionListener throwing = new DecisionListener() {
            @Override
            public void decided(DecisionRecord record, ClassLoader sdkLoader) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public String name() {
                return name;
            }
        };
        DecisionLog log = new DecisionLog(List.of(recording("before", null), throwing, recording("after", null)), false);
        long errors = Diagnostics.adviceErrors();

        String err = stderrOf(() -> {
            for (int i = 0; i < 5; i++) {
                assertThatCode(() -> log.record(CALL, ALLOWED, 1, SDK)).doesNotThrowAnyException();
            }
        });

        assertThat(told).hasSize(10).containsOnly("before echo", "after echo");
        assertThat(Diagnostics.listenerErrors()).containsEntry(name, 5L);
        assertThat(Diagnostics.adviceErrors()).isEqualTo(errors + 5);
        assertThat(Diagnostics.adviceErrorsByKind()).containsEntry("decision listener " + name + " / java.lang.IllegalStateException", 5L);
        assertThat(err.lines()).singleElement().asString()
                .startsWith("[mcp-policy] WARN advice error in decision listener " + name
                        + " (tool echo): java.lang.IllegalStateException: listener bug")
                .endsWith("further errors of this kind are counted, not printed each time");
    }

    @Test
    void theConfiguredListenersAreTheLineThenTheAuditFileAndLogOffWithoutAuditHasNone() {
        DecisionLog stderr = DecisionLog.configured(LogTarget.STDERR, null, false, new StartupSummary());
        String line = stderrOf(() -> stderr.record(CALL, ALLOWED, 3, SDK));
        assertThat(line).startsWith("mcp-policy decision=ALLOW tool=echo side=server rule=/tools/echo").contains("took_us=3");

        DecisionLog off = DecisionLog.configured(LogTarget.OFF, null, false, new StartupSummary());
        String nothing = stderrOf(() -> off.record(CALL, ALLOWED, 3, SDK));
        assertThat(nothing).isEmpty();
    }

    private DecisionListener recording(String name, List<DecisionRecord> records) {
        return new DecisionListener() {
            @Override
            public void decided(DecisionRecord record, ClassLoader sdkLoader) {
                assertThat(sdkLoader).isSameAs(SDK);
                told.add(name + " " + record.call().tool());
                if (records != null) {
                    records.add(record);
                }
            }

            @Override
            public String name() {
                return name;
            }
        };
    }

    private static String stderrOf(Runnable action) {
        return Stderr.of(action);
    }
}
