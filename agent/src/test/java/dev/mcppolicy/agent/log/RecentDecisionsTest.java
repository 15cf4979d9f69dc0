package dev.mcppolicy.agent.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.log.DecisionRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The admin page's ring buffer of recent decisions. */
class RecentDecisionsTest {
    @Test
    void givesTheNewestFirstUpToTheLimit() {
        RecentDecisions recent = new RecentDecisions(10);
        assertThat(recent.newest(5)).isEmpty();
        for (int i = 0; i < 4; i++) {
            recent.add("{\"n\":" + i + "}");
        }
        assertThat(recent.newest(3)).containsExactly("{\"n\":3}", "{\"n\":2}", "{\"n\":1}");
        assertThat(recent.newest(100)).containsExactly("{\"n\":3}", "{\"n\":2}", "{\"n\":1}", "{\"n\":0}");
        assertThat(recent.newest(0)).isEmpty();
        assertThat(recent.newest(-1)).isEmpty();
        assertThat(recent.total()).isEqualTo(4);
    }

    @Test
    void keepsOnlyTheLastCapacityOnceFull() {
        RecentDecisions recent = new RecentDecisions(3);
        for (int i = 0; i < 8; i++) {
            recent.add(String.valueOf(i));
        }
        assertThat(recent.newest(10)).containsExactly("7", "6", "5");
        assertThat(recent.total()).isEqualTo(8);
        assertThat(recent.capacity()).isEqualTo(3);
    }

    @Test
    void aCapacityBelowOneIsRefused() {
        assertThatThrownBy(() -> new RecentDecisions(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void recordsEachDecisionAsItsBoundedAuditRecord() {
        RecentDecisions recent = new RecentDecisions(2);
        ToolCall call = new ToolCall(Side.SERVER, null, "t".repeat(1_000), Map.of("k", "v".repeat(100_000)), "s", "c", null);
        DecisionRecord record = new DecisionRecord(Instant.parse("2026-12-01T00:00:00Z"), call,
                new Decision(Effect.DENY, Effect.DENY, "/tools/t", "no", 0), 5, true);
        recent.decided(record, null);
        assertThat(recent.newest(1)).containsExactly(record.toBoundedJson());
        assertThat(recent.newest(1).get(0)).hasSizeLessThan(6_000);
    }

    @Test
    void concurrentWritersLoseNothingAndAReaderSeesEachRecordWhole() throws Exception {
        RecentDecisions recent = new RecentDecisions(64);
        int threads = 4;
        int each = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                writers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        recent.add(thread + ":" + i);
                    }
                    return null;
                }));
            }
            Future<Integer> reader = pool.submit(() -> {
                start.await();
                int reads = 0;
                while (recent.total() < (long) threads * each) {
                    for (String json : recent.newest(64)) {
                        assertThat(json).matches("\\d:\\d+");
                    }
                    reads++;
                }
                return reads;
            });
            start.countDown();
            for (Future<?> writer : writers) {
                writer.get(60, TimeUnit.SECONDS);
            }
            reader.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertThat(recent.total()).isEqualTo((long) threads * each);
        List<String> newest = recent.newest(64);
        assertThat(newest).hasSize(64);
        Set<String> distinct = new HashSet<>(newest);
        assertThat(distinct).hasSize(64);
        // each writer's own records come newest first
        for (int t = 0; t < threads; t++) {
            String prefix = t + ":";
            List<Integer> mine = new ArrayList<>();
            for (String json : newest) {
                if (json.startsWith(prefix)) {
                    mine.add(Integer.parseInt(json.substring(prefix.length())));
                }
            }
            assertThat(mine).isSortedAccordingTo((a, b) -> Integer.compare(b, a));
        }
    }
}
