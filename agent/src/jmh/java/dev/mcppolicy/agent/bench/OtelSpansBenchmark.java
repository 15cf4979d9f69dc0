package dev.mcppolicy.agent.bench;

import dev.mcppolicy.agent.otel.OtelSpans;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 32, item 3: what a decision adds to a traced request. {@code requestSpan} is the baseline: a request's span as
 * the OTel SDK makes it (started, made current, ended; no exporter). {@code requestSpanWithDecision}: the same span with
 * one decision put on it (its attributes and event). {@code withoutOtel}: what a JVM without OpenTelemetry pays per
 * decision (the SDK's class loader sees no OTel).
 */
@State(org.openjdk.jmh.annotations.Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class OtelSpansBenchmark {
    private final OtelSpans spans = new OtelSpans();
    private final ToolCall call = new ToolCall(Side.SERVER, null, "run_command", Map.of("command", "ls"), "s-1", "client-1", null);
    private final Decision decision = new Decision(Effect.DENY, Effect.DENY, "/tools/run_command/require/0", "ops only", 0);
    private final ClassLoader withoutOtel = new URLClassLoader(new URL[0], null);
    private Tracer tracer;
    private ClassLoader loader;

    @Setup
    public void setUp() {
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder().build()).build();
        GlobalOpenTelemetry.set(sdk);
        tracer = sdk.getTracer("bench");
        loader = getClass().getClassLoader();
    }

    @TearDown
    public void tearDown() {
        GlobalOpenTelemetry.resetForTest();
    }

    @Benchmark
    public Span requestSpan() {
        Span span = tracer.spanBuilder("POST /mcp").startSpan();
        Scope scope = span.makeCurrent();
        try {
            return span;
        } finally {
            scope.close();
            span.end();
        }
    }

    @Benchmark
    public Span requestSpanWithDecision() {
        Span span = tracer.spanBuilder("POST /mcp").startSpan();
        Scope scope = span.makeCurrent();
        try {
            spans.record(call, decision, null, loader);
            return span;
        } finally {
            scope.close();
            span.end();
        }
    }

    @Benchmark
    public Object withoutOtel() {
        spans.record(call, decision, null, withoutOtel);
        return spans;
    }
}
