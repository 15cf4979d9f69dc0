package dev.mcppolicy.bench;

import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one read of the engine's clock costs on the machine at hand: the floor under every decision
 * that takes from a rate limit. The allow path reads it once (the engine's {@code clock.millis()}; the
 * rate-limit store is told that time, and its key caches' ticker reads it back from memory), so
 * compare {@link DecisionBenchmark#allowFixed} with this figure before blaming the engine on a slow
 * virtual machine.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class ClockBaseline {
    private final Clock clock = Clock.systemUTC();

    @Benchmark
    public long systemUtcMillis() {
        return clock.millis();
    }
}
