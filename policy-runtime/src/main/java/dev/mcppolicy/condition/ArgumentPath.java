package dev.mcppolicy.condition;

import java.util.List;
import java.util.Map;

/**
 * A dot path into tool arguments ({@code options.0.name}), split once. A leading {@code args.} is
 * dropped, as PolicyLayer and its Intercept proxy write paths. A numeric segment indexes a list, and
 * also names a map key of the same spelling.
 */
public final class ArgumentPath {
    /** What {@link #resolve} returns when the path leads nowhere: distinct from a present JSON null. */
    public static final Object ABSENT = new Object() {
        @Override
        public String toString() {
            return "(absent)";
        }
    };

    private final String text;
    private final String[] keys;
    private final int[] indexes;

    private ArgumentPath(String text, String[] keys, int[] indexes) {
        this.text = text;
        this.keys = keys;
        this.indexes = indexes;
    }

    public static ArgumentPath parse(String path) {
        String effective = path.startsWith("args.") ? path.substring("args.".length()) : path;
        String[] keys = effective.split("\\.", -1);
        int[] indexes = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            indexes[i] = index(keys[i]);
        }
        return new ArgumentPath(path, keys, indexes);
    }

    private static int index(String key) {
        if (key.isEmpty() || key.length() > 9 || !key.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        return Integer.parseInt(key);
    }

    /** The value at this path in {@code arguments}, or {@link #ABSENT}. */
    public Object resolve(Map<String, ?> arguments) {
        Object current = arguments;
        for (int i = 0; i < keys.length; i++) {
            if (current instanceof Map) {
                Map<?, ?> map = (Map<?, ?>) current;
                Object next = map.get(keys[i]);
                if (next == null && !map.containsKey(keys[i])) {
                    return ABSENT;
                }
                current = next;
            } else if (current instanceof List && indexes[i] >= 0) {
                List<?> list = (List<?>) current;
                if (indexes[i] >= list.size()) {
                    return ABSENT;
                }
                current = list.get(indexes[i]);
            } else {
                return ABSENT;
            }
        }
        return current;
    }

    @Override
    public String toString() {
        return text;
    }
}
