package dev.mcppolicy.agent.sdk;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reflection on SDK objects by member name, each method and field looked up once per class. The getters a
 * call reads ({@code name()}, {@code sessionId()}, ...) are called through cached {@link MethodHandle}s of
 * type {@code (Object)Object} rather than {@code Method.invoke}: no argument array, no reflective accessor
 * class generated after the 15th call, code the JIT compiles early.
 */
public final class Reflection {
    /** Per class: a getter (no parameters) by name, as a handle of type {@code (Object)Object}, or none. */
    private static final ClassValue<Map<String, Optional<MethodHandle>>> GETTERS = perClass();
    /** Per class: a field of it or its superclasses by name, readable, or none. */
    private static final ClassValue<Map<String, Optional<Field>>> FIELDS = perClass();
    private static final MethodType GETTER = MethodType.methodType(Object.class, Object.class);
    /** Per class: a method of one {@code String} parameter by name ({@code get(key)}, {@code getHeader(name)}), or none. */
    private static final ClassValue<Map<String, Optional<MethodHandle>>> LOOKUPS = perClass();
    private static final MethodType LOOKUP = MethodType.methodType(Object.class, Object.class, String.class);
    /** Per class: a method by its name and parameter types ({@code get(java.lang.String)}), or none. */
    private static final ClassValue<Map<String, Optional<Method>>> METHODS = perClass();

    private Reflection() {
    }

    /** A cache per class of members by name (an empty {@code Optional}: the class has none), dropped with the class. */
    private static <T> ClassValue<Map<String, Optional<T>>> perClass() {
        return new ClassValue<>() {
            @Override
            protected Map<String, Optional<T>> computeValue(Class<?> type) {
                return new ConcurrentHashMap<>();
            }
        };
    }

    /** {@code target.name()} through a cached handle; {@code null} target gives {@code null}; a method it lacks throws. */
    public static Object call(Object target, String name) {
        if (target == null) {
            return null;
        }
        return callGetter(getter(target.getClass(), name), target, name);
    }

    /** {@code target.name()}, or {@code null} when {@code target} is {@code null} or has no such method (an older SDK's record). */
    public static Object callIfPresent(Object target, String name) {
        if (target == null) {
            return null;
        }
        MethodHandle getter = getter(target.getClass(), name);
        return getter == null ? null : callGetter(getter, target, name);
    }

    /**
     * {@code getter} (from {@link #getter}, for the method {@code name}) called on {@code target}, failing as
     * {@link #call(Object, String)} does: {@code null} is a method {@code target} does not have.
     */
    static Object callGetter(MethodHandle getter, Object target, String name) {
        if (getter == null) {
            throw new IllegalStateException(target.getClass().getName() + " has no method " + name + "()");
        }
        try {
            return (Object) getter.invokeExact(target);
        } catch (Throwable t) {
            // what the SDK's method threw, wrapped as Method.invoke did
            throw new IllegalStateException("cannot call " + target.getClass().getName() + "." + name + "()", t);
        }
    }

    /** The getter {@code name()} of {@code type} as an {@code (Object)Object} handle, or {@code null} when it has none. */
    static MethodHandle getter(Class<?> type, String name) {
        Map<String, Optional<MethodHandle>> known = GETTERS.get(type);
        Optional<MethodHandle> getter = known.get(name);
        if (getter == null) {
            // the lambda only on a miss: computeIfAbsent with a capturing lambda allocates it on every call
            getter = known.computeIfAbsent(name, k -> Optional.ofNullable(handleOf(method(type, name))));
        }
        return getter.orElse(null);
    }

    /** The method {@code name(String)} of {@code type} as an {@code (Object,String)Object} handle, or {@code null}. */
    static MethodHandle lookup(Class<?> type, String name) {
        Map<String, Optional<MethodHandle>> known = LOOKUPS.get(type);
        Optional<MethodHandle> lookup = known.get(name);
        if (lookup == null) {
            lookup = known.computeIfAbsent(name, k -> {
                Method method = find(type, name, String.class);
                return Optional.ofNullable(method == null ? null : handleOf(method, LOOKUP));
            });
        }
        return lookup.orElse(null);
    }

    /** Calls a {@link #lookup} handle; what the method throws comes wrapped, as {@code Method.invoke} did. */
    static Object call(MethodHandle lookup, Object target, String argument) {
        try {
            return (Object) lookup.invokeExact(target, argument);
        } catch (Throwable t) {
            throw new IllegalStateException("cannot call " + target.getClass().getName() + " with " + argument, t);
        }
    }

    private static MethodHandle handleOf(Method method) {
        return method == null ? null : handleOf(method, GETTER);
    }

    private static MethodHandle handleOf(Method method, MethodType type) {
        try {
            return MethodHandles.lookup().unreflect(method).asType(type);
        } catch (IllegalAccessException e) {
            // not accessible to a handle (a module that does not open it): through the Method, as before
            MethodHandle spread = METHOD_INVOKE.bindTo(method).asCollector(Object[].class, type.parameterCount() - 1);
            return spread.asType(type);
        }
    }

    /** {@code Method.invoke(target, arguments)} as a handle of type {@code (Method,Object,Object[])Object}, for a method no handle can reach. */
    private static final MethodHandle METHOD_INVOKE = invokeThroughMethod();

    private static MethodHandle invokeThroughMethod() {
        try {
            return MethodHandles.lookup().findStatic(Reflection.class, "invokeThrough",
                    MethodType.methodType(Object.class, Method.class, Object.class, Object[].class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object invokeThrough(Method method, Object target, Object[] arguments) {
        return invoke(method, target, arguments);
    }

    static boolean hasMethod(Object target, String name) {
        return getter(target.getClass(), name) != null;
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
        Map<String, Optional<Method>> known = METHODS.get(type);
        Optional<Method> method = known.get(key);
        if (method == null) {
            method = known.computeIfAbsent(key, k -> Optional.ofNullable(find(type, name, parameters)));
        }
        return method.orElse(null);
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
        Map<String, Optional<Field>> known = FIELDS.get(target.getClass());
        Optional<Field> found = known.get(name);
        if (found == null) {
            found = known.computeIfAbsent(name, k -> Optional.ofNullable(findField(target.getClass(), name)));
        }
        Field field = found.orElse(null);
        if (field == null) {
            return null;
        }
        try {
            return field.get(target);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The field {@code name} of {@code type} or its superclasses, made readable, or {@code null}: none, or it cannot be. */
    private static Field findField(Class<?> type, String name) {
        for (Class<?> at = type; at != null; at = at.getSuperclass()) {
            try {
                Field field = at.getDeclaredField(name);
                field.setAccessible(true);
                return field;
            } catch (NoSuchFieldException e) {
                // look in the superclass
            } catch (RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    public static String asString(Object value) {
        return value == null ? null : value.toString();
    }
}
