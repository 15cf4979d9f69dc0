package dev.mcppolicy.engine.internal;

import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.EngineOptions;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.policy.Condition;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.ServerPolicy;
import dev.mcppolicy.policy.ToolRule;
import dev.mcppolicy.ratelimit.RateLimitStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Decides made-up calls to every rule of a policy on a scratch engine, so that the first real call of
 * each tool finds the code it runs loaded and linked: the classes of the conditions it checks (RE2/J
 * for a {@code regex}), the schema checker, the rate-limit state and its key cache (Caffeine), and the
 * string building of a denial's reason. On a cold JVM that first use costs milliseconds per tool, and
 * it is paid here, on the thread that loaded the policy, instead.
 *
 * <p>The scratch engine has its own in-memory store, so nothing is counted against the real limits,
 * and its decisions go nowhere but to {@code sink} (which may build a decision line from each, to warm
 * that path too, but must not emit it).
 */
final class Rehearsal {
    private static final String WHO = "mcp-policy-rehearsal";
    private static final Map<String, Object> OBJECT_SCHEMA = Map.of("type", "object");

    private Rehearsal() {
    }

    static void run(Policy policy, EngineOptions options, BiConsumer<? super ToolCall, ? super Decision> sink) {
        EngineOptions scratch = new EngineOptions(RateLimitStore.inMemory(64), options.maxValueLength(), options.storeFail());
        CompiledPolicy engine = new CompiledPolicy(policy, Clock.systemUTC(), scratch);
        engine.prepareStore();
        List<ToolCall> calls = new ArrayList<>();
        calls(policy.tools(), Side.SERVER, null, calls);
        calls(policy.tools(), Side.CLIENT, WHO, calls);
        for (Map.Entry<String, ServerPolicy> section : policy.servers().entrySet()) {
            calls(section.getValue().tools(), Side.CLIENT, section.getKey(), calls);
        }
        calls.add(new ToolCall(Side.SERVER, null, WHO + "-unknown-tool", Map.of(), WHO, WHO, null));
        for (ToolCall call : calls) {
            engine.isListed(call.side(), call.server(), call.tool());
            engine.needsInputSchema(call.side(), call.server(), call.tool());
            // twice: a limit of one refuses the second, so the refusal's path is run as well
            sink.accept(call, engine.decide(call));
            sink.accept(call, engine.decide(call));
        }
    }

    /** For each rule: its conditions' own values, a string at each of their paths, and no arguments. */
    private static void calls(Map<String, ToolRule> rules, Side side, String server, List<ToolCall> into) {
        for (Map.Entry<String, ToolRule> entry : rules.entrySet()) {
            String tool = entry.getKey().replace('*', 'x').replace('?', 'x');
            ToolRule rule = entry.getValue();
            Map<String, ?> schema = rule.validateInputSchema() ? OBJECT_SCHEMA : null;
            List<Condition> conditions = new ArrayList<>(rule.require());
            conditions.addAll(rule.denyIf());
            Map<String, Object> own = new LinkedHashMap<>();
            Map<String, Object> strings = new LinkedHashMap<>();
            for (Condition condition : conditions) {
                put(own, condition.path(), condition.value());
                put(strings, condition.path(), "x");
            }
            into.add(new ToolCall(side, server, tool, own, WHO, WHO, schema));
            into.add(new ToolCall(side, server, tool, strings, WHO, WHO, schema));
            into.add(new ToolCall(side, server, tool, Map.of(), WHO, WHO, schema));
        }
    }

    /** Puts {@code value} at a dot path, making the maps on the way; a path that collides is left as it is. */
    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> arguments, String path, Object value) {
        String effective = path.startsWith("args.") ? path.substring("args.".length()) : path;
        String[] keys = effective.split("\\.", -1);
        Map<String, Object> current = arguments;
        for (int i = 0; i < keys.length - 1; i++) {
            Object next = current.computeIfAbsent(keys[i], k -> new LinkedHashMap<String, Object>());
            if (!(next instanceof Map)) {
                return;
            }
            current = (Map<String, Object>) next;
        }
        Object scalar = value instanceof List<?> list && !list.isEmpty() ? list.get(0) : value;
        if (scalar instanceof Map || scalar instanceof List) {
            scalar = "x";
        }
        current.putIfAbsent(keys[keys.length - 1], scalar);
    }
}
