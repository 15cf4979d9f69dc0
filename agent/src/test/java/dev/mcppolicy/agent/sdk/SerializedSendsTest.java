package dev.mcppolicy.agent.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/** Many threads sending on one SDK-shaped stdio sink (unicast, drained by publishOn as the SDK does): nothing is lost. */
class SerializedSendsTest {
    private static final int THREADS = 8;
    private static final int PER_THREAD = 5_000;

    @Test
    void everyConcurrentSendIsQueuedAndDeliveredOnce() throws Exception {
        Sinks.Many<Object> sink = Sinks.many().unicast().onBackpressureBuffer();
        Scheduler outbound = Schedulers.newSingle("test-outbound");
        ConcurrentLinkedQueue<Object> delivered = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(1);
        Flux.from(sink.asFlux()).publishOn(outbound).doOnNext(delivered::add).doOnComplete(done::countDown).subscribe();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<List<Object>>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    start.await();
                    List<Object> mine = new ArrayList<>();
                    for (int i = 0; i < PER_THREAD; i++) {
                        mine.add(SerializedSends.emit(sink, thread + ":" + i));
                    }
                    return mine;
                }));
            }
            start.countDown();
            for (Future<List<Object>> result : results) {
                assertThat(result.get()).hasSize(PER_THREAD).allMatch(Sinks.EmitResult.OK::equals);
            }
            sink.tryEmitComplete();
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(delivered).hasSize(THREADS * PER_THREAD).doesNotHaveDuplicates();
        } finally {
            pool.shutdownNow();
            outbound.dispose();
        }
    }

    @Test
    void aSinkThatRefusesForGoodReturnsWhatItSaid() {
        Sinks.Many<Object> sink = Sinks.many().unicast().onBackpressureBuffer();
        sink.tryEmitComplete();
        assertThat(SerializedSends.emit(sink, "late")).isEqualTo(Sinks.EmitResult.FAIL_TERMINATED);
    }
}
