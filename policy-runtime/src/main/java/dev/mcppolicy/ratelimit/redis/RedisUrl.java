package dev.mcppolicy.ratelimit.redis;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A {@code store} value naming a Redis server: {@code redis://[user:password@]host:port[/db]}, or
 * {@code rediss://} for TLS. Parsed without the Redis client, so checking a configuration loads none of
 * it. {@link #toString()} and {@link #masked()} never show the password.
 *
 * @param password the password in the URL, or {@code null}
 */
public record RedisUrl(boolean tls, String user, String password, String host, int port, int database) {
    /** The database a URL without {@code /db} uses. */
    public static final int DEFAULT_DATABASE = 0;

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException saying what is wrong (never repeating a password)
     */
    public static RedisUrl parse(String text) {
        String value = text == null ? "" : text.trim();
        String lower = value.toLowerCase(Locale.ROOT);
        boolean tls = lower.startsWith("rediss://");
        if (!tls && !lower.startsWith("redis://")) {
            throw new IllegalArgumentException("not memory, redis://host:port or rediss://host:port");
        }
        String rest = value.substring(tls ? 9 : 8);
        int at = rest.lastIndexOf('@');
        String user = null;
        String password = null;
        if (at >= 0) {
            String userInfo = rest.substring(0, at);
            rest = rest.substring(at + 1);
            int colon = userInfo.indexOf(':');
            user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
            password = colon < 0 ? null : decode(userInfo.substring(colon + 1));
            if (colon < 0) {
                // redis://secret@host, the form redis-cli takes: the user info is the password
                password = user;
                user = null;
            }
            if (user != null && user.isEmpty()) {
                user = null;
            }
            if (password != null && password.isEmpty()) {
                password = null;
            }
        }
        int slash = rest.indexOf('/');
        String address = slash < 0 ? rest : rest.substring(0, slash);
        int database = DEFAULT_DATABASE;
        if (slash >= 0 && slash < rest.length() - 1) {
            database = number(rest.substring(slash + 1), 0, 65_535, "the database (after /) is not a number from 0 to 65535");
        }
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || address.endsWith("]")) {
            throw new IllegalArgumentException("no port: write host:port (redis://127.0.0.1:6379)");
        }
        String host = address.substring(0, colon);
        int port = number(address.substring(colon + 1), 1, 65_535, "the port is not a number from 1 to 65535");
        if (host.startsWith("[") && host.endsWith("]") && host.length() > 2) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0 || host.indexOf('[') >= 0 || host.indexOf(']') >= 0) {
            throw new IllegalArgumentException("an IPv6 host goes in brackets: redis://[::1]:6379");
        }
        for (int i = 0; i < host.length(); i++) {
            char c = Character.toLowerCase(host.charAt(i));
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' || c == ':')) {
                throw new IllegalArgumentException("the host has a character a host name cannot have");
            }
        }
        return new RedisUrl(tls, user, password, host.toLowerCase(Locale.ROOT), port, database);
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the user or password has a bad %-escape");
        }
    }

    private static int number(String text, int min, int max, String problem) {
        if (text.isEmpty() || text.length() > 5) {
            throw new IllegalArgumentException(problem);
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                throw new IllegalArgumentException(problem);
            }
        }
        int value = Integer.parseInt(text);
        if (value < min || value > max) {
            throw new IllegalArgumentException(problem);
        }
        return value;
    }

    /** The same server with {@code password} instead (one from {@code MCPPOLICY_STORE_PASSWORD}, say). */
    public RedisUrl withPassword(String newPassword) {
        return new RedisUrl(tls, user, newPassword, host, port, database);
    }

    /** The URL as the startup summary shows it: {@code redis://app:***@10.0.0.5:6379/2}. */
    public String masked() {
        StringBuilder out = new StringBuilder(tls ? "rediss://" : "redis://");
        if (user != null || password != null) {
            if (user != null) {
                out.append(user);
            }
            if (password != null) {
                out.append(user != null ? ":" : "").append("***");
            }
            out.append('@');
        }
        out.append(host.indexOf(':') >= 0 ? "[" + host + "]" : host).append(':').append(port);
        if (database != DEFAULT_DATABASE) {
            out.append('/').append(database);
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return masked();
    }
}
