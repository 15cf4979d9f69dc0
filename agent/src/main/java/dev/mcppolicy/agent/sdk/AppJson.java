package dev.mcppolicy.agent.sdk;

import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Map;

/**
 * A tool's structured content as a result rule reads it (SPEC §13): plain Java JSON (maps, lists, strings, numbers,
 * booleans). An app may hand the SDK an object of its own there (a Quarkus tool's {@code structuredSuccess(pojo)}, a
 * POJO in a {@code CallToolResult}), which the SDK writes as JSON with the app's Jackson only when it sends the answer.
 * This converts such an object the same way, with the app's own mapper: Quarkus's {@code ObjectMapper} bean (its
 * customizers applied) where the app runs on Quarkus, else a default {@code ObjectMapper} of the app's Jackson 2, else
 * a Jackson 3 {@code JsonMapper}. An object none of these can convert is left as it is, and the judge denies it
 * (fail closed: it cannot see into it). A redacted answer carries the converted content.
 *
 * <p>Jackson is reached by names built at run time: the agent's build relocates {@code com.fasterxml.jackson} names in
 * its classes to its own shaded copy, which is not the app's.
 */
public final class AppJson {
    private static final String JACKSON2 = String.join(".", "com", "fasterxml", "jackson", "databind", "ObjectMapper");
    private static final String JACKSON3 = String.join(".", "tools", "jackson", "databind", "json", "JsonMapper");
    /** How deep {@link #isJson} looks before it calls a value foreign (the judge walks no deeper either). */
    private static final int MAX_DEPTH = 64;

    /** The mapper that converts a class's objects: found once per class (the class holds it, so nothing outlives its loader). */
    private static final ClassValue<Object> MAPPERS = new ClassValue<>() {
        @Override
        protected Object computeValue(Class<?> type) {
            return mapper(type.getClassLoader());
        }
    };

    private AppJson() {
    }

    /** {@code value} as plain Java JSON: the same object when it is that already, else converted by the app's Jackson. */
    public static Object jsonLike(Object value) throws ReflectiveOperationException {
        if (isJson(value, 0)) {
            return value;
        }
        Object mapper = MAPPERS.get(value.getClass());
        if (mapper == null) {
            return value;
        }
        try {
            return mapper.getClass().getMethod("convertValue", Object.class, Class.class).invoke(mapper, value, Object.class);
        } catch (InvocationTargetException e) {
            // the app could not write it as JSON either: left as it is, the judge denies it
            return value;
        }
    }

    private static boolean isJson(Object value, int depth) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
            return true;
        }
        if (depth > MAX_DEPTH) {
            return false;
        }
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!(entry.getKey() instanceof String) || !isJson(entry.getValue(), depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        if (value instanceof List<?> list) {
            for (Object item : list) {
                if (!isJson(item, depth + 1)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** The app's mapper as seen from {@code loader}, or {@code null} when it has no Jackson. */
    private static Object mapper(ClassLoader loader) {
        ClassLoader from = loader != null ? loader : ClassLoader.getSystemClassLoader();
        try {
            Class<?> jackson2 = Class.forName(JACKSON2, false, from);
            Object bean = quarkusBean(jackson2, from);
            return bean != null ? bean : jackson2.getConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            // no Jackson 2 there
        }
        try {
            Class<?> jackson3 = Class.forName(JACKSON3, false, from);
            return jackson3.getConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    /** Quarkus's {@code ObjectMapper} bean ({@code Arc.container().instance(type).get()}), or {@code null} off Quarkus. */
    private static Object quarkusBean(Class<?> type, ClassLoader loader) {
        try {
            Class<?> arc = Class.forName("io.quarkus.arc.Arc", false, loader);
            Object container = arc.getMethod("container").invoke(null);
            if (container == null) {
                return null;
            }
            // through the public interfaces: the implementations' classes are not public
            Class<?> containerType = Class.forName("io.quarkus.arc.ArcContainer", false, loader);
            Class<?> handleType = Class.forName("io.quarkus.arc.InstanceHandle", false, loader);
            Object handle = containerType.getMethod("instance", Class.class, Annotation[].class).invoke(container, type, new Annotation[0]);
            Object available = handleType.getMethod("isAvailable").invoke(handle);
            return Boolean.TRUE.equals(available) ? handleType.getMethod("get").invoke(handle) : null;
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }
}
