package dev.mcppolicy.agent.otel;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.log.ApprovalNote;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decisions on the app's OpenTelemetry traces (issue 32), with no code change and no OTel class of the agent's own:
 * each decision sets attributes on the current span and adds it an event, both named {@code mcp.policy.decision}; a call
 * held for approval is a span of its own, {@code mcp.policy.approval}, ended with its outcome.
 *
 * <p>Which OpenTelemetry: the OTel Java agent's, when it runs (its API, relocated under
 * {@value #AGENT_PREFIX}, is on the boot class path, and it sees every span, the app's too), else the app's own
 * {@code opentelemetry-api}, found through the class loader of the SDK that made the call. Bound by reflection, once
 * per class loader: a JVM without either loads no OTel class and pays one failed class lookup per loader. With no
 * span current (a stdio server, which nothing traces) a decision is a short span of its own, when OTel has an
 * {@code OpenTelemetry} set; the agent never sets or configures one (it never calls {@code GlobalOpenTelemetry.get()},
 * which would fix a no-op in place of the app's).
 *
 * <p>Attributes, under the OTel semantic conventions' names where they have one: {@code mcp.method.name},
 * {@code gen_ai.tool.name}, {@code mcp.resource.uri}, {@code gen_ai.prompt.name}, {@code mcp.session.id}; and the
 * agent's own {@code mcp.policy.decision} ({@code ALLOW}, {@code DENY}, {@code HOLD}), {@code mcp.policy.would} (a
 * monitored call's), {@code mcp.policy.rule}, {@code mcp.policy.side}. Never an argument value, a result, a token or
 * who the caller is.
 */
public final class OtelSpans {
    static final String AGENT_PREFIX = "io.opentelemetry.javaagent.shaded.";
    static final String SCOPE = "dev.mcppolicy.agent";
    private static final Api NONE = new Api(null, null, null, null, null, null, null, null, null, null, null, null, null, null);

    private final Map<ClassLoader, Api> bindings = Collections.synchronizedMap(new WeakHashMap<>());
    /** The OTel Java agent's API, looked up once: {@link #NONE} when it does not run. */
    private volatile Api agent;
    /** The binding the last decision used. */
    private volatile Api last = NONE;
    /** Held calls' approval spans, by approval id, until their outcome ends them. */
    private final Map<String, Object> approvals = new ConcurrentHashMap<>();

    /** Puts one decision on the current trace, if the JVM has OpenTelemetry; called by {@code DecisionLog}. */
    public void record(ToolCall call, Decision decision, ApprovalNote approval, ClassLoader sdkLoader) {
        Api api = api(sdkLoader);
        if (api.current == null) {
            return;
        }
        try {
            if (approval != null && !approval.isHold()) {
                Object held = approvals.remove(approval.id());
                if (held != null) {
                    api.set(held, "mcp.policy.approval.outcome", approval.outcome());
                    api.set(held, "mcp.policy.decision", decision.effect().name());
                    api.set(held, "mcp.policy.approval.approver", approval.approver());
                    api.set(held, "mcp.policy.approval.waited_ms", Long.toString(approval.waitedMillis()));
                    api.end(held);
                    return;
                }
            }
            String word = word(decision, approval);
            Object span = api.currentSpan();
            boolean own = !api.isValid(span);
            if (own) {
                span = api.start("mcp.policy.decision", call);
                if (span == null) {
                    return;
                }
            } else if (!api.isRecording(span)) {
                return;
            }
            describe(api, span, call);
            api.set(span, "mcp.policy.decision", word);
            String would = decision.wouldBe() != decision.effect() ? decision.wouldBe().name() : null;
            api.set(span, "mcp.policy.would", would);
            api.set(span, "mcp.policy.rule", decision.rule());
            api.event(span, "mcp.policy.decision", "mcp.policy.decision", word, "mcp.policy.would", would, "mcp.policy.rule", decision.rule(),
                    name(call.kind()), call.tool(), "mcp.policy.approval.id", approval == null ? null : approval.id());
            if (approval != null && approval.isHold()) {
                Object held = api.start("mcp.policy.approval", call);
                if (held != null) {
                    api.set(held, "mcp.policy.rule", decision.rule());
                    api.set(held, "mcp.policy.approval.id", approval.id());
                    api.set(held, "mcp.policy.approval.via", approval.via());
                    approvals.put(approval.id(), held);
                }
            }
            if (own) {
                api.end(span);
            }
        } catch (Throwable t) {
            throw new IllegalStateException("OpenTelemetry: " + t, t);
        }
    }

    private static void describe(Api api, Object span, ToolCall call) throws Throwable {
        api.set(span, "mcp.method.name", method(call.kind()));
        api.set(span, name(call.kind()), call.tool());
        api.set(span, "mcp.session.id", call.sessionId());
        api.set(span, "mcp.policy.side", call.side().word());
    }

    /** The MCP method a call is, by the semantic conventions' {@code mcp.method.name}. */
    static String method(Kind kind) {
        return switch (kind) {
            case TOOL -> "tools/call";
            case RESOURCE -> "resources/read";
            case PROMPT -> "prompts/get";
        };
    }

    /** The attribute that names what a call asks for. */
    static String name(Kind kind) {
        return switch (kind) {
            case TOOL -> "gen_ai.tool.name";
            case RESOURCE -> "mcp.resource.uri";
            case PROMPT -> "gen_ai.prompt.name";
        };
    }

    private Api api(ClassLoader sdkLoader) {
        Api binding = last;
        if (binding.loader == sdkLoader && binding != NONE) {
            return binding;
        }
        Api otelAgent = agent;
        if (otelAgent == null) {
            otelAgent = bind(null, AGENT_PREFIX, "the OTel Java agent's");
            agent = otelAgent;
        }
        if (otelAgent.current != null) {
            last = otelAgent;
            return otelAgent;
        }
        binding = bindings.computeIfAbsent(sdkLoader, loader -> bind(loader, "", "the app's"));
        last = binding;
        return binding;
    }

    /** OpenTelemetry's API as {@code loader} has it under {@code prefix}; {@link #NONE}'s shape without it. */
    static Api bind(ClassLoader loader, String prefix, String whose) {
        try {
            Class<?> span = Class.forName(prefix + "io.opentelemetry.api.trace.Span", false, loader);
            Class<?> spanContext = Class.forName(prefix + "io.opentelemetry.api.trace.SpanContext", false, loader);
            Class<?> attributes = Class.forName(prefix + "io.opentelemetry.api.common.Attributes", false, loader);
            Class<?> attributesBuilder = Class.forName(prefix + "io.opentelemetry.api.common.AttributesBuilder", false, loader);
            Class<?> global = Class.forName(prefix + "io.opentelemetry.api.GlobalOpenTelemetry", false, loader);
            Class<?> tracer = Class.forName(prefix + "io.opentelemetry.api.trace.Tracer", false, loader);
            Class<?> spanBuilder = Class.forName(prefix + "io.opentelemetry.api.trace.SpanBuilder", false, loader);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodType objectToObject = MethodType.methodType(Object.class, Object.class);
            Api api = new Api(loader,
                    lookup.findStatic(span, "current", MethodType.methodType(span)).asType(MethodType.methodType(Object.class)),
                    lookup.findVirtual(span, "isRecording", MethodType.methodType(boolean.class))
                            .asType(MethodType.methodType(boolean.class, Object.class)),
                    lookup.findVirtual(span, "getSpanContext", MethodType.methodType(spanContext)).asType(objectToObject),
                    lookup.findVirtual(spanContext, "isValid", MethodType.methodType(boolean.class))
                            .asType(MethodType.methodType(boolean.class, Object.class)),
                    lookup.findVirtual(span, "setAttribute", MethodType.methodType(span, String.class, String.class))
                            .asType(MethodType.methodType(Object.class, Object.class, String.class, String.class)),
                    lookup.findVirtual(span, "addEvent", MethodType.methodType(span, String.class, attributes))
                            .asType(MethodType.methodType(Object.class, Object.class, String.class, Object.class)),
                    lookup.findStatic(attributes, "builder", MethodType.methodType(attributesBuilder)).asType(MethodType.methodType(Object.class)),
                    lookup.findVirtual(attributesBuilder, "put", MethodType.methodType(attributesBuilder, String.class, String.class))
                            .asType(MethodType.methodType(Object.class, Object.class, String.class, String.class)),
                    lookup.findVirtual(attributesBuilder, "build", MethodType.methodType(attributes)).asType(objectToObject),
                    lookup.findVirtual(span, "end", MethodType.methodType(void.class)).asType(MethodType.methodType(void.class, Object.class)),
                    new Tracers(global, lookup.findStatic(global, "getTracer", MethodType.methodType(tracer, String.class))),
                    lookup.findVirtual(tracer, "spanBuilder", MethodType.methodType(spanBuilder, String.class))
                            .asType(MethodType.methodType(Object.class, Object.class, String.class)),
                    lookup.findVirtual(spanBuilder, "startSpan", MethodType.methodType(span)).asType(objectToObject));
            Diagnostics.info("otel: " + whose + " OpenTelemetry found; decisions go on the current span as mcp.policy.decision");
            return api;
        } catch (ClassNotFoundException | LinkageError e) {
            return new Api(loader, null, null, null, null, null, null, null, null, null, null, null, null, null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            Diagnostics.warn("otel: " + whose + " OpenTelemetry is present but could not be bound (" + e + "); decisions are not traced");
            return new Api(loader, null, null, null, null, null, null, null, null, null, null, null, null, null);
        }
    }

    /** {@code GlobalOpenTelemetry}'s tracer, asked for only once the app (or the OTel agent) has set one. */
    static final class Tracers {
        private final MethodHandle getTracer;
        /** {@code GlobalOpenTelemetry.isSet()}, or (before API 1.52) a read of the field it reads; {@code null}: neither. */
        private final MethodHandle isSet;
        private volatile Object tracer;

        Tracers(Class<?> global, MethodHandle getTracer) {
            this.getTracer = getTracer;
            this.isSet = isSet(global);
        }

        private static MethodHandle isSet(Class<?> global) {
            try {
                return MethodHandles.publicLookup().findStatic(global, "isSet", MethodType.methodType(boolean.class));
            } catch (ReflectiveOperationException older) {
                try {
                    Field field = global.getDeclaredField("globalOpenTelemetry");
                    field.setAccessible(true);
                    MethodHandle read = MethodHandles.lookup().unreflectGetter(field).asType(MethodType.methodType(Object.class));
                    MethodHandle nonNull = MethodHandles.lookup().findStatic(java.util.Objects.class, "nonNull",
                            MethodType.methodType(boolean.class, Object.class));
                    return MethodHandles.filterReturnValue(read, nonNull);
                } catch (ReflectiveOperationException | RuntimeException none) {
                    return null;
                }
            }
        }

        /** The agent's tracer, or {@code null} while no {@code OpenTelemetry} is set (asking would fix a no-op one). */
        Object tracer() throws Throwable {
            Object known = tracer;
            if (known != null) {
                return known;
            }
            if (isSet == null || !(boolean) isSet.invokeExact()) {
                return null;
            }
            known = getTracer.invoke(SCOPE);
            tracer = known;
            return known;
        }
    }

    /** The API's handles, each typed on {@code Object}. */
    record Api(ClassLoader loader, MethodHandle current, MethodHandle isRecording, MethodHandle spanContext, MethodHandle isValid,
            MethodHandle setAttribute, MethodHandle addEvent, MethodHandle attributesBuilder, MethodHandle put, MethodHandle build,
            MethodHandle end, Tracers tracers, MethodHandle spanBuilder, MethodHandle startSpan) {
        Object currentSpan() throws Throwable {
            return (Object) current.invokeExact();
        }

        boolean isValid(Object span) throws Throwable {
            return (boolean) isValid.invokeExact((Object) spanContext.invokeExact(span));
        }

        boolean isRecording(Object span) throws Throwable {
            return (boolean) isRecording.invokeExact(span);
        }

        void set(Object span, String key, String value) throws Throwable {
            if (value != null) {
                Object ignored = (Object) setAttribute.invokeExact(span, key, value);
            }
        }

        /** Adds the event {@code name} with the attributes of {@code pairs} (key, value, ...; a {@code null} value is left out). */
        void event(Object span, String name, String... pairs) throws Throwable {
            Object builder = (Object) attributesBuilder.invokeExact();
            for (int i = 0; i < pairs.length; i += 2) {
                if (pairs[i + 1] != null) {
                    builder = (Object) put.invokeExact(builder, pairs[i], pairs[i + 1]);
                }
            }
            Object ignored = (Object) addEvent.invokeExact(span, name, (Object) build.invokeExact(builder));
        }

        /** A span {@code name} for {@code call}, child of the current one; {@code null} while no {@code OpenTelemetry} is set. */
        Object start(String name, ToolCall call) throws Throwable {
            Object tracer = tracers.tracer();
            if (tracer == null) {
                return null;
            }
            Object builder = (Object) spanBuilder.invokeExact(tracer, name);
            Object span = (Object) startSpan.invokeExact(builder);
            describe(this, span, call);
            return span;
        }

        void end(Object span) throws Throwable {
            end.invokeExact(span);
        }
    }

    /** The effect word of a decision, as the decision line has it: {@code HOLD} for a call held for approval. */
    static String word(Decision decision, ApprovalNote approval) {
        return (approval != null && approval.isHold()) || decision.effect() == Effect.REQUIRE_APPROVAL ? "HOLD" : decision.effect().name();
    }
}
