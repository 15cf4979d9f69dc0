package dev.mcppolicy.agent.sdk;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Reflection on SDK objects by member name, each method looked up once per class and signature. */
public final class Reflection {
    /** Per class: a method by its name and parameter types ({@code get(java.lang.String)}), or none. */
    private static final ClassValue<Map<String, Optional<Method>>> METHODS = new ClassValue<>() {
        @Override
        protected Map<String, Optional<Method>> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private Reflection() {
    }

    static Object call(Object target, String name) {
        if (target == null) {
            return null;
        }
        Method method = method(target.getClass(), name);
        if (method == null) {
            throw new IllegalStateException(target.getClass().getName() + " has no method " + name + "()");
        }
        return invoke(method, target);
    }

    static boolean hasMethod(Object target, String name) {
        return method(target.getClass(), name) != null;
    }

    /** {@code name(type,type)}: overloads with as many parameters of other types never share a cache entry. */
    static String signature(String name, Class<?>... parameters) {
        StringBuilder key = new StringBuilder(name).append('(');
        for (int i = 0; i < parameters.length; i++) {
            key.append(i == 0 ? "" : ",").append(parameters[i].getName());
        }
        return key.append(')').toString();
    }

    static Method method(Class<?> type, String name, Class<?>... parameters) {
        String key = parameters.length == 0 ? name : signature(name, parameters);
        return METHODS.get(type).computeIfAbsent(key, k -> Optional.ofNullable(find(type, name, parameters))).orElse(null);
    }

    static Method find(Class<?> type, String name, Class<?>... parameters) {
        try {
            Method method = type.getMethod(name, parameters);
            method.trySetAccessible();
            return method;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    static Object invoke(Method method, Object target, Object... args) {
        try {
            return method.invoke(target, args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call " + method, e);
        }
    }

    /** A field of {@code target} or its superclasses, or {@code null} when there is none or it cannot be read. */
    public static Object field(Object target, String name) {
        for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
            try {
                Field field = type.getDeclaredField(name);
                field.setAccessible(true);
                return field.get(target);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    static String asString(Object value) {
        return value == null ? null : value.toString();
    }
}
