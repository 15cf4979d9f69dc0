package dev.mcppolicy.agent.bench;

import dev.mcppolicy.agent.sdk.SerializedSends;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import reactor.core.publisher.Sinks;

/**
 * What {@code serialize_stdio} adds to one stdio send of an SDK before 2.1.0: the sink's monitor and a
 * method-handle call around the SDK's own {@code tryEmitNext}, against the bare {@code tryEmitNext}, on
 * an SDK-shaped sink (unicast, buffering) whose subscriber consumes each message at once. Single-threaded:
 * the uncontended cost every message pays (under contention the bare call loses messages instead).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class SerializedSendBenchmark {
    private Sinks.Many<Object> sink;
    private final Object message = new Object();

    @Setup
    public void setUp(Blackhole consumer) {
        sink = Sinks.many().unicast().onBackpressureBuffer();
        sink.asFlux().subscribe(consumer::consume);
    }

    @Benchmark
    public Object bareTryEmitNext() {
        return sink.tryEmitNext(message);
    }

    @Benchmark
    public Object serializedEmit() {
        return SerializedSends.emit(sink, message);
    }
}
