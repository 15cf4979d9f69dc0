package dev.mcppolicy.agent.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.log.ApprovalNote;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link OtelSpans} on the real OpenTelemetry SDK as an app has it (its own {@code opentelemetry-api} on the class path,
 * no OTel Java agent): a decision's attributes and event on the current span, a held call's approval span ended with its
 * outcome, a decision with no span current as a short span of its own, and never a global {@code OpenTelemetry} set by
 * the agent.
 */
class OtelSpansTest {
    private final InMemorySpanExporter exported = InMemorySpanExporter.create();

    @AfterEach
    void forget() {
        GlobalOpenTelemetry.resetForTest();
    }

    private Tracer appTracer() {
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build()).build();
        GlobalOpenTelemetry.set(sdk);
        return sdk.getTracer("app");
    }

    private static ToolCall call(String tool) {
        return new ToolCall(Side.SERVER, null, tool, Map.of("command", "rm -rf /"), "s-1", "client-1", null);
    }

    @Test
    void aDecisionIsAttributesAndAnEventOnTheCurrentSpanNeverAnArgument() {
        Tracer app = appTracer();
        OtelSpans spans = new OtelSpans();
        Span request = app.spanBuilder("POST /mcp").startSpan();
        Scope scope = request.makeCurrent();
        try {
            spans.record(call("run_command"), new Decision(Effect.DENY, Effect.DENY, "/tools/run_command/require/0", "ops only", 0), null,
                    getClass().getClassLoader());
        } finally {
            scope.close();
        }
        request.end();

        SpanData span = only(exported.getFinishedSpanItems());
        assertThat(span.getName()).isEqualTo("POST /mcp");
        assertThat(span.getAttributes().asMap()).containsEntry(AttributeKey.stringKey("mcp.policy.decision"), "DENY")
                .containsEntry(AttributeKey.stringKey("mcp.policy.rule"), "/tools/run_command/require/0")
                .containsEntry(AttributeKey.stringKey("gen_ai.tool.name"), "run_command")
                .containsEntry(AttributeKey.stringKey("mcp.method.name"), "tools/call")
                .containsEntry(AttributeKey.stringKey("mcp.session.id"), "s-1")
                .containsEntry(AttributeKey.stringKey("mcp.policy.side"), "server")
                .doesNotContainKey(AttributeKey.stringKey("mcp.policy.would"));
        EventData event = only(span.getEvents());
        assertThat(event.getName()).isEqualTo("mcp.policy.decision");
        assertThat(event.getAttributes().get(AttributeKey.stringKey("mcp.policy.rule"))).isEqualTo("/tools/run_command/require/0");
        assertThat(span.toString()).doesNotContain("rm -rf");
    }

    @Test
    void aHeldCallIsAnApprovalSpanUnderTheRequestEndedWithItsOutcome() {
        Tracer app = appTracer();
        OtelSpans spans = new OtelSpans();
        ToolCall call = call("deploy");
        Span request = app.spanBuilder("POST /mcp").startSpan();
        Scope scope = request.makeCurrent();
        try {
            spans.record(call, new Decision(Effect.REQUIRE_APPROVAL, Effect.REQUIRE_APPROVAL, "/tools/deploy", null, 0),
                    ApprovalNote.held("a-1"), getClass().getClassLoader());
        } finally {
            scope.close();
        }
        request.end();
        assertThat(only(exported.getFinishedSpanItems()).getAttributes().get(AttributeKey.stringKey("mcp.policy.decision"))).isEqualTo("HOLD");

        // a person approves, on another thread, with no span current
        spans.record(call, new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/deploy", null, 0), new ApprovalNote("a-1", "approved", "alice", 1200),
                getClass().getClassLoader());

        List<SpanData> finished = exported.getFinishedSpanItems();
        assertThat(finished).hasSize(2);
        SpanData approval = finished.get(1);
        assertThat(approval.getName()).isEqualTo("mcp.policy.approval");
        assertThat(approval.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
        assertThat(approval.getAttributes().asMap()).containsEntry(AttributeKey.stringKey("mcp.policy.approval.outcome"), "approved")
                .containsEntry(AttributeKey.stringKey("mcp.policy.approval.id"), "a-1")
                .containsEntry(AttributeKey.stringKey("mcp.policy.approval.approver"), "alice")
                .containsEntry(AttributeKey.stringKey("mcp.policy.decision"), "ALLOW")
                .containsEntry(AttributeKey.stringKey("gen_ai.tool.name"), "deploy");
    }

    @Test
    void withNoSpanCurrentADecisionIsASpanOfItsOwnAndAMonitoredOneSaysWhatItWouldBe() {
        appTracer();
        new OtelSpans().record(ToolCall.resource(Side.CLIENT, null, "file:///etc/passwd", "s-2", null),
                new Decision(Effect.ALLOW, Effect.DENY, "/resources/deny/0", "secrets", 0), null, getClass().getClassLoader());

        SpanData own = only(exported.getFinishedSpanItems());
        assertThat(own.getName()).isEqualTo("mcp.policy.decision");
        assertThat(own.getParentSpanContext().isValid()).isFalse();
        assertThat(own.getAttributes().asMap()).containsEntry(AttributeKey.stringKey("mcp.policy.decision"), "ALLOW")
                .containsEntry(AttributeKey.stringKey("mcp.policy.would"), "DENY")
                .containsEntry(AttributeKey.stringKey("mcp.resource.uri"), "file:///etc/passwd")
                .containsEntry(AttributeKey.stringKey("mcp.method.name"), "resources/read")
                .containsEntry(AttributeKey.stringKey("mcp.policy.side"), "client");
    }

    @Test
    void theAgentNeverSetsTheGlobalOpenTelemetryThatTheAppMaySetLater() {
        new OtelSpans().record(call("echo"), new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/echo", null, 0), null, getClass().getClassLoader());
        assertThat(GlobalOpenTelemetry.isSet()).isFalse();
        appTracer();
        assertThat(GlobalOpenTelemetry.isSet()).isTrue();
    }

    private static <T> T only(List<T> items) {
        assertThat(items).hasSize(1);
        return items.get(0);
    }
}
