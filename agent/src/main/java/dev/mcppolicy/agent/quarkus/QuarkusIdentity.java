package dev.mcppolicy.agent.quarkus;

import dev.mcppolicy.agent.identity.AppPrincipal;
import dev.mcppolicy.agent.identity.CallerOutcome;
import dev.mcppolicy.agent.sdk.Reflection;
import dev.mcppolicy.engine.Caller;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The caller Quarkus Security verified for an MCP request of the Quarkus MCP server (issue 32): the request's
 * {@code SecurityIdentity}, as the extension itself hands it to the request's CDI context.
 *
 * <p>Every HTTP transport of the extension (streamable HTTP, SSE; 1.10 to 1.13) gives each {@code McpRequest} a
 * {@code SecuritySupport} that, asked {@code setCurrentIdentity(association)}, sets on {@code association} the identity
 * of the HTTP request it came with: the {@code QuarkusHttpUser}'s {@code SecurityIdentity} (proactive authentication,
 * Quarkus' default, and any request an HTTP permission authenticated), else the request's deferred identity, a Mutiny
 * {@code Uni} (lazy authentication). The agent asks it the same way, with an association of its own that only keeps
 * what it is given ({@link Asker}): no CDI request context, no Arc lookup, no Vert.x {@code RoutingContext}, the same on
 * whichever thread the hook runs and after a call waited. An identity at hand is read at once; a deferred one is
 * subscribed to and its answer awaited without blocking ({@link #found}: a {@link CompletionStage}). A request without a
 * {@code SecuritySupport} (stdio) has no caller.
 *
 * <p>Of a {@code SecurityIdentity} that is not anonymous: its principal's name, its roles, and, when the principal is a
 * MicroProfile {@code JsonWebToken} (SmallRye JWT, Quarkus OIDC), its claims made plain JSON (a {@code jakarta.json}
 * value as Java strings, numbers, booleans, lists and maps) and its subject. The token itself (the {@code raw_token}
 * "claim" SmallRye adds) is never read. Everything by reflection on the app's classes: the agent bundles none of
 * Quarkus'.
 */
final class QuarkusIdentity {
    /** SmallRye JWT's name for the token itself among a {@code JsonWebToken}'s claim names: the credential, never a claim. */
    static final String RAW_TOKEN = "raw_token";

    private QuarkusIdentity() {
    }

    /**
     * Who the caller of {@code request} (the extension's {@code McpRequest}) is: a {@link CallerOutcome} now (none, a
     * verified caller, or {@linkplain CallerOutcome#unavailable unavailable} when the identity could not be read), or a
     * {@link CompletionStage} of one when the request's identity is still being established (lazy authentication).
     * Never throws.
     */
    static Object found(Object request) {
        try {
            Object support = Reflection.call(request, "securitySupport");
            if (support == null) {
                // stdio: no HTTP request, no identity
                return CallerOutcome.NONE;
            }
            return ASKERS.get(support.getClass()).ask(support);
        } catch (Throwable t) {
            return unavailable(t);
        }
    }

    private static CallerOutcome unavailable(Throwable t) {
        return CallerOutcome.unavailable("the request's Quarkus SecurityIdentity could not be read: " + t);
    }

    /**
     * The caller a Quarkus {@code SecurityIdentity} names: {@link Caller#unverified()} for none or an anonymous one (or an
     * authenticated one with no name to count it by); else verified, its subject the token's {@code sub}, else the
     * principal's name.
     */
    static Caller caller(Object identity) {
        if (identity == null || Boolean.TRUE.equals(Reflection.call(identity, "isAnonymous"))) {
            return Caller.unverified();
        }
        Object principal = Reflection.call(identity, "getPrincipal");
        String name = principal == null ? null : Reflection.asString(Reflection.call(principal, "getName"));
        List<String> roles = new ArrayList<>();
        if (Reflection.call(identity, "getRoles") instanceof Collection<?> granted) {
            for (Object role : granted) {
                if (role instanceof String text && !text.isEmpty()) {
                    roles.add(text);
                }
            }
        }
        Map<String, Object> claims = new LinkedHashMap<>();
        String subject = null;
        if (principal != null && Reflection.callIfPresent(principal, "getClaimNames") instanceof Collection<?> names) {
            Method getClaim = CLAIM.get(principal.getClass());
            for (String claim : new TreeSet<>(textsOf(names))) {
                if (getClaim != null && !RAW_TOKEN.equals(claim)) {
                    claims.put(claim, plain(invoke(getClaim, principal, claim), 0));
                }
            }
            subject = Reflection.asString(Reflection.callIfPresent(principal, "getSubject"));
        }
        if (subject == null || subject.isEmpty()) {
            subject = claims.get("sub") instanceof String sub && !sub.isEmpty() ? sub : name;
        }
        if (subject == null || subject.isEmpty()) {
            return Caller.unverified();
        }
        return Caller.verified(subject, name, roles, claims);
    }

    private static List<String> textsOf(Collection<?> names) {
        List<String> texts = new ArrayList<>(names.size());
        for (Object name : names) {
            if (name instanceof String text) {
                texts.add(text);
            }
        }
        return texts;
    }

    /** A principal's {@code getClaim(String)}, by class; {@code null} for a principal without one. */
    private static final ClassValue<Method> CLAIM = new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> type) {
            try {
                Method method = type.getMethod("getClaim", String.class);
                method.trySetAccessible();
                return method;
            } catch (NoSuchMethodException e) {
                return null;
            }
        }
    };

    private static Object invoke(Method method, Object target, Object argument) {
        try {
            return method.invoke(target, argument);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call " + method, e);
        }
    }

    /**
     * A claim as plain JSON: a {@code jakarta.json} (or {@code javax.json}) value as its Java value (a string, a
     * {@code Long} or {@code Double}, a boolean, {@code null}, a list, a map), collections and maps all the way down;
     * the rest as {@link AppPrincipal#plain} makes it (a time as epoch seconds, anything else as text).
     */
    static Object plain(Object value, int depth) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        if (depth > 32) {
            return String.valueOf(value);
        }
        String type = JSON_TYPE.get(value.getClass()) ? ((Enum<?>) Reflection.call(value, "getValueType")).name() : null;
        if ("STRING".equals(type)) {
            return Reflection.asString(Reflection.call(value, "getString"));
        }
        if ("NUMBER".equals(type)) {
            return number((BigDecimal) Reflection.call(value, "bigDecimalValue"));
        }
        if ("TRUE".equals(type) || "FALSE".equals(type)) {
            return "TRUE".equals(type);
        }
        if ("NULL".equals(type)) {
            return null;
        }
        // a JSON object is a Map, an array a List
        Object copy = AppPrincipal.copyOf(value, depth, QuarkusIdentity::plain);
        return copy != null ? copy : AppPrincipal.plain(value, depth);
    }

    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    /** A JSON number: a {@code Long} when it is a whole number a long holds, else a {@code Double}. */
    private static Object number(BigDecimal number) {
        if (number == null) {
            return null;
        }
        if (number.signum() == 0) {
            return 0L;
        }
        if (number.stripTrailingZeros().scale() <= 0 && number.abs().compareTo(LONG_MAX) <= 0) {
            return number.longValue();
        }
        return number.doubleValue();
    }

    /**
     * Whether a class is a {@code jakarta.json} / {@code javax.json} value: its public {@code getValueType()} answers a
     * {@code JsonValue.ValueType}.
     */
    private static final ClassValue<Boolean> JSON_TYPE = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                Class<?> answer = type.getMethod("getValueType").getReturnType();
                return answer.isEnum() && answer.getName().endsWith("JsonValue$ValueType");
            } catch (NoSuchMethodException e) {
                return false;
            }
        }
    };

    /** How to ask the extension's {@code SecuritySupport}s of one class, resolved once per class. */
    private static final ClassValue<Asker> ASKERS = new ClassValue<>() {
        @Override
        protected Asker computeValue(Class<?> support) {
            try {
                return new Asker(support);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("the Quarkus MCP server's SecuritySupport is not the one the agent knows: " + e, e);
            }
        }
    };

    /** Nothing set: the {@code SecuritySupport} asked did not call {@code setIdentity}. */
    private static final Object NOTHING_SET = new Object();
    /** What the association was given on this thread, while {@link Asker#ask} runs. */
    private static final ThreadLocal<Object> GIVEN = new ThreadLocal<>();

    /**
     * Asks a {@code SecuritySupport} ({@code void setCurrentIdentity(CurrentIdentityAssociation)}) for the identity it
     * holds, with a {@code CurrentIdentityAssociation} of the agent's (a {@link Proxy} of the app's interface, one per
     * class) that keeps, on the asking thread, whatever {@code setIdentity} gets: a {@code SecurityIdentity}, or a
     * {@code Uni} of one. Everything is found by shape (the method's parameter type, the association's
     * {@code getIdentity()} type), not by name.
     */
    static final class Asker {
        private final MethodHandle setCurrentIdentity;
        private final Object association;
        private final Class<?> identityType;
        private final Class<?> deferredType;
        private final MethodHandle subscribe;

        Asker(Class<?> support) throws ReflectiveOperationException {
            Method set = setCurrentIdentity(support);
            Class<?> associationType = set.getParameterTypes()[0];
            if (!associationType.isInterface()) {
                throw new NoSuchMethodException(set + ": not an interface to answer");
            }
            identityType = associationType.getMethod("getIdentity").getReturnType();
            deferredType = associationType.getMethod("getDeferredIdentity").getReturnType();
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            subscribe = lookup.findVirtual(deferredType, "subscribeAsCompletionStage", MethodType.methodType(CompletableFuture.class))
                    .asType(MethodType.methodType(CompletableFuture.class, Object.class));
            setCurrentIdentity = lookup.unreflect(set).asType(MethodType.methodType(void.class, Object.class, Object.class));
            association = Proxy.newProxyInstance(associationType.getClassLoader(), new Class<?>[] {associationType}, KEEPER);
        }

        /** {@code setCurrentIdentity(association)}, declared by a public interface of {@code support} (the extension's {@code SecuritySupport}). */
        private static Method setCurrentIdentity(Class<?> support) throws NoSuchMethodException {
            for (Class<?> type = support; type != null; type = type.getSuperclass()) {
                for (Class<?> declared : type.getInterfaces()) {
                    if (!Modifier.isPublic(declared.getModifiers())) {
                        continue;
                    }
                    for (Method method : declared.getMethods()) {
                        if (method.getName().equals("setCurrentIdentity") && method.getParameterCount() == 1) {
                            return method;
                        }
                    }
                }
            }
            throw new NoSuchMethodException(support.getName() + " has no setCurrentIdentity(CurrentIdentityAssociation)");
        }

        /** The identity {@code support} holds, as {@link #found} answers it. */
        Object ask(Object support) throws Throwable {
            Object given;
            GIVEN.set(NOTHING_SET);
            try {
                setCurrentIdentity.invokeExact(support, association);
                given = GIVEN.get();
            } finally {
                GIVEN.remove();
            }
            if (given == NOTHING_SET || given == null) {
                return CallerOutcome.NONE;
            }
            if (identityType.isInstance(given)) {
                return CallerOutcome.of(caller(given));
            }
            if (!deferredType.isInstance(given)) {
                throw new IllegalStateException("the request's SecuritySupport gave a " + given.getClass().getName());
            }
            // lazy authentication: the identity is the request's Uni (memoized), established when first subscribed to
            CompletableFuture<?> identity = (CompletableFuture<?>) subscribe.invokeExact(given);
            CompletableFuture<Object> outcome = identity.handle((established, failure) -> {
                if (failure != null) {
                    return unavailable(failure);
                }
                try {
                    return established == null ? CallerOutcome.NONE : CallerOutcome.of(caller(established));
                } catch (Throwable t) {
                    return unavailable(t);
                }
            });
            return outcome.isDone() ? outcome.join() : outcome;
        }
    }

    /** The agent's {@code CurrentIdentityAssociation}: keeps what {@code setIdentity} gets; asks nothing else of the app. */
    private static final InvocationHandler KEEPER = (proxy, method, arguments) -> {
        switch (method.getName()) {
            case "setIdentity":
                GIVEN.set(arguments[0]);
                return null;
            case "hashCode":
                return System.identityHashCode(proxy);
            case "equals":
                return proxy == arguments[0];
            case "toString":
                return "mcp-policy's reader of the request's identity";
            default:
                // getIdentity(), getDeferredIdentity(): the extension's SecuritySupport only sets
                return null;
        }
    };
}
