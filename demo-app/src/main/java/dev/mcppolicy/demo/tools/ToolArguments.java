package dev.mcppolicy.demo.tools;

import java.util.Map;

/**
 * Typed access to a call's arguments. The SDK already validates them against each tool's
 * {@code inputSchema}; these checks repeat the essentials so a handler never trusts a raw map.
 * A bad argument is an {@link IllegalArgumentException}, which the tool answers as a tool error.
 */
final class ToolArguments {
    private final Map<String, Object> values;

    ToolArguments(Map<String, Object> values) {
        this.values = values == null ? Map.of() : values;
    }

    String requiredString(String name) {
        Object value = values.get(name);
        if (!(value instanceof String)) {
            throw new IllegalArgumentException("argument '" + name + "' must be a string");
        }
        return (String) value;
    }

    String requiredNonBlank(String name) {
        String value = requiredString(name);
        if (value.isBlank()) {
            throw new IllegalArgumentException("argument '" + name + "' must not be blank");
        }
        return value;
    }

    int optionalInt(String name, int fallback, int min, int max) {
        Object value = values.get(name);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Number) || ((Number) value).doubleValue() != Math.rint(((Number) value).doubleValue())) {
            throw new IllegalArgumentException("argument '" + name + "' must be an integer");
        }
        long number = ((Number) value).longValue();
        if (number < min || number > max) {
            throw new IllegalArgumentException("argument '" + name + "' must be between " + min + " and " + max);
        }
        return (int) number;
    }

    boolean optionalBoolean(String name, boolean fallback) {
        Object value = values.get(name);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Boolean)) {
            throw new IllegalArgumentException("argument '" + name + "' must be a boolean");
        }
        return (Boolean) value;
    }
}
