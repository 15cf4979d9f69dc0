package dev.mcppolicy.agent.metrics;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.ToolCall;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Decisions as Micrometer meters on the app's own global registry ({@code Metrics.globalRegistry},
 * where Spring Boot's actuator puts its registries), found through the class loader of the SDK that
 * made the call, so {@code /actuator/prometheus} shows them with no code change (SPEC §8):
 * {@code mcp.policy.decisions} (a counter) and {@code mcp.policy.decision} (a timer of the time to
 * decide), both tagged {@code tool}, {@code decision}, {@code rule} and {@code side}.
 *
 * <p>Bound by reflection: the agent bundles no Micrometer, and an app without it pays one failed class
 * lookup per class loader. Tags are bounded: a tool the policy names keeps its name; the first
 * {@value #MOST_OTHER_TOOLS} others too (the server's own tools); any more are {@value #OTHER}. Rules
 * come from the policy, so they are bounded by it.
 */
public final class MicrometerMeters {
    static final int MOST_OTHER_TOOLS = 100;
    static final String OTHER = "other";
    private static final Binding NONE = new Binding(null, null, null, null, null, null, null, null);

    private final Map<ClassLoader, Binding> bindings = Collections.synchronizedMap(new WeakHashMap<>());
    private final Set<String> otherTools = ConcurrentHashMap.newKeySet();
    /** The binding the last decision used: most apps have one SDK loader, so the map is rarely read. */
    private volatile Binding last = NONE;

    /** Counts one decision on the Micrometer of {@code sdkLoader}, if it has one; called by {@code DecisionLog}. */
    public void record(ToolCall call, Decision decision, long tookMicros, ClassLoader sdkLoader) {
        Binding binding = last;
        if (binding.loader != sdkLoader) {
            binding = bindings.computeIfAbsent(sdkLoader, MicrometerMeters::bind);
            last = binding;
        }
        if (binding.registry == null) {
            return;
        }
        String rule = decision.rule() == null ? "" : decision.rule();
        String word = decision.effect() == Effect.REQUIRE_APPROVAL ? "HOLD" : decision.effect().name();
        binding.record(new Tags(tool(call.tool(), rule), word, rule, call.side().word()), tookMicros);
    }

    /** The tool tag: bounded (see the class comment). */
    private String tool(String tool, String rule) {
        if (tool == null) {
            return OTHER;
        }
        if (rule.startsWith("/tools/") || rule.startsWith("/servers/") || otherTools.contains(tool)) {
            return tool;
        }
        if (otherTools.size() < MOST_OTHER_TOOLS && otherTools.add(tool)) {
            return tool;
        }
        return OTHER;
    }

    private static Binding bind(ClassLoader loader) {
        try {
            Class<?> metrics = Class.forName("io.micrometer.core.instrument.Metrics", false, loader);
            Object registry = metrics.getField("globalRegistry").get(null);
            Class<?> registryType = Class.forName("io.micrometer.core.instrument.MeterRegistry", false, loader);
            Class<?> counter = Class.forName("io.micrometer.core.instrument.Counter", false, loader);
            Class<?> timer = Class.forName("io.micrometer.core.instrument.Timer", false, loader);
            Method counterBuilder = counter.getMethod("builder", String.class);
            Method timerBuilder = timer.getMethod("builder", String.class);
            // per decision: handles, not Method.invoke (no argument array, no boxed long)
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodHandle increment = lookup.findVirtual(counter, "increment", MethodType.methodType(void.class))
                    .asType(MethodType.methodType(void.class, Object.class));
            MethodHandle record = lookup.findVirtual(timer, "record", MethodType.methodType(void.class, long.class, TimeUnit.class))
                    .asType(MethodType.methodType(void.class, Object.class, long.class, TimeUnit.class));
            Diagnostics.info("metrics: Micrometer found; decisions go to its global registry as mcp.policy.decisions"
                    + " and mcp.policy.decision");
            return new Binding(loader, registry, registryType, counterBuilder, timerBuilder, increment, record,
                    new ConcurrentHashMap<>());
        } catch (ClassNotFoundException | LinkageError e) {
            return new Binding(loader, null, null, null, null, null, null, null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            Diagnostics.warn("metrics: Micrometer is present but could not be bound (" + e + "); no Micrometer meters");
            return new Binding(loader, null, null, null, null, null, null, null);
        }
    }

    record Tags(String tool, String decision, String rule, String side) {
        String[] pairs() {
            return new String[] {"tool", tool, "decision", decision, "rule", rule, "side", side};
        }
    }

    /** Micrometer as one class loader has it, and the meters made there, by tags. */
    private record Binding(ClassLoader loader, Object registry, Class<?> registryType, Method counterBuilder, Method timerBuilder,
            MethodHandle increment, MethodHandle recordTime, Map<Tags, Object[]> meters) {
        void record(Tags tags, long tookMicros) {
            Object[] pair = meters.get(tags);
            try {
                if (pair == null) {
                    pair = meters.computeIfAbsent(tags, this::register);
                }
                increment.invokeExact(pair[0]);
                recordTime.invokeExact(pair[1], tookMicros, TimeUnit.MICROSECONDS);
            } catch (Throwable t) {
                throw new IllegalStateException("Micrometer: " + t, t);
            }
        }

        private Object[] register(Tags tags) {
            try {
                return new Object[] {build(counterBuilder, "mcp.policy.decisions", "MCP tool calls decided by the policy agent", tags),
                    build(timerBuilder, "mcp.policy.decision", "time the policy agent took to decide an MCP tool call", tags)};
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Micrometer: " + e, e);
            }
        }

        private Object build(Method builderMethod, String name, String description, Tags tags) throws ReflectiveOperationException {
            Object builder = builderMethod.invoke(null, name);
            builder = method(builder, "description", String.class).invoke(builder, description);
            builder = method(builder, "tags", String[].class).invoke(builder, (Object) tags.pairs());
            return method(builder, "register", registryType).invoke(builder, registry);
        }

        /** A public method of a builder, looked up on the public type that declares it (builders are often nested classes). */
        private static Method method(Object target, String name, Class<?>... types) throws NoSuchMethodException {
            Method method = target.getClass().getMethod(name, types);
            method.setAccessible(true);
            return method;
        }
    }
}
