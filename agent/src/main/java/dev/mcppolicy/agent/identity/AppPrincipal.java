package dev.mcppolicy.agent.identity;

import dev.mcppolicy.agent.sdk.Reflection;
import dev.mcppolicy.engine.Caller;
import java.net.URI;
import java.net.URL;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The caller the app verified itself (issue 32), read from the HTTP request its MCP transport handles: the servlet
 * {@code HttpServletRequest.getUserPrincipal()} (javax or jakarta; Spring Security's request wrapper answers its
 * {@code Authentication} there, and none for an anonymous one), or a Spring WebMvc functional {@code ServerRequest}'s
 * {@code principal()}. Of a Spring Security {@code Authentication}: its name, its authorities as roles, and, for a
 * token (the OAuth 2.0 resource server's {@code JwtAuthenticationToken}), its claims and their {@code sub}. Claims are
 * made plain JSON (an {@code Instant} as epoch seconds, a URL as text), as a condition reads them. A Spring WebFlux
 * {@code ServerRequest} answers its principal as a {@code Mono} that only the request's own chain can read
 * ({@link #deferred}, {@link DeferredCaller}).
 */
public final class AppPrincipal {
    private AppPrincipal() {
    }

    /** The app's verified caller of {@code request}, or {@code null} when the app has none (or is not asked). */
    public static Caller of(Object request) {
        return request == null ? null : caller(principal(request));
    }

    /**
     * The principal {@code Mono} of a Spring WebFlux {@code ServerRequest} ({@code principal()}), which answers only when
     * subscribed inside the request's chain; {@code null} for any other request, and for WebFlux's own
     * {@code Mono.empty()} (no security configured: nothing to wait for).
     */
    public static Object deferred(Object request) {
        if (request == null) {
            return null;
        }
        Object functional = Reflection.callIfPresent(request, "principal");
        if (functional == null || functional instanceof Optional<?>) {
            return null;
        }
        String type = functional.getClass().getName();
        return type.startsWith("reactor.core.publisher.Mono") && !type.equals("reactor.core.publisher.MonoEmpty") ? functional : null;
    }

    /** The caller a principal names: {@code null} for none, or one not authenticated, or one with no name. */
    static Caller caller(Object principal) {
        if (principal == null) {
            return null;
        }
        Object authenticated = Reflection.callIfPresent(principal, "isAuthenticated");
        if (Boolean.FALSE.equals(authenticated)) {
            return null;
        }
        String name = Reflection.asString(Reflection.callIfPresent(principal, "getName"));
        List<String> roles = new ArrayList<>();
        Object authorities = Reflection.callIfPresent(principal, "getAuthorities");
        if (authorities instanceof Collection<?> granted) {
            for (Object authority : granted) {
                Object text = Reflection.callIfPresent(authority, "getAuthority");
                if (text instanceof String role && !role.isEmpty()) {
                    roles.add(role);
                }
            }
        }
        Map<String, Object> claims = new LinkedHashMap<>();
        Object attributes = Reflection.callIfPresent(principal, "getTokenAttributes");
        if (attributes instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> claim : map.entrySet()) {
                claims.put(String.valueOf(claim.getKey()), plain(claim.getValue(), 0));
            }
        }
        Object sub = claims.get("sub");
        String subject = sub instanceof String text && !text.isEmpty() ? text : name;
        if (subject == null || subject.isEmpty()) {
            return null;
        }
        return Caller.verified(subject, name, roles, claims);
    }

    private static Object principal(Object request) {
        Object servlet = Reflection.callIfPresent(request, "getUserPrincipal");
        if (servlet != null) {
            return servlet;
        }
        Object functional = Reflection.callIfPresent(request, "principal");
        // WebMvc's ServerRequest answers an Optional; WebFlux's a Mono, read by the call's own chain (deferred)
        return functional instanceof Optional<?> optional ? optional.orElse(null) : null;
    }

    /** A claim as plain JSON: maps, lists, strings, numbers and booleans; a time as epoch seconds; anything else as text. */
    public static Object plain(Object value, int depth) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        if (depth > 32) {
            return String.valueOf(value);
        }
        if (value instanceof Instant instant) {
            return instant.getEpochSecond();
        }
        if (value instanceof Date date) {
            return date.getTime() / 1000;
        }
        if (value instanceof URL || value instanceof URI) {
            return value.toString();
        }
        Object copy = copyOf(value, depth, AppPrincipal::plain);
        return copy != null ? copy : String.valueOf(value);
    }

    /** How one library's claim values become plain JSON, at a depth of nesting. */
    @FunctionalInterface
    public interface Plain {
        Object plain(Object value, int depth);
    }

    /**
     * A map (as a map of strings) or a collection (as a list) copied with every element made plain by {@code element},
     * one level deeper; {@code null} when {@code value} is neither.
     */
    public static Object copyOf(Object value, int depth, Plain element) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                copy.put(String.valueOf(entry.getKey()), element.plain(entry.getValue(), depth + 1));
            }
            return copy;
        }
        if (value instanceof Collection<?> items) {
            List<Object> copy = new ArrayList<>(items.size());
            for (Object item : items) {
                copy.add(element.plain(item, depth + 1));
            }
            return copy;
        }
        return null;
    }
}
