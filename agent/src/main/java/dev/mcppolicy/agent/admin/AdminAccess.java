package dev.mcppolicy.agent.admin;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which requests the admin endpoint answers: a {@code Host} naming this loopback server (not a name a
 * DNS-rebinding page made point at it), and no {@code Origin} but this server's own (so no other web
 * page's script gets an answer; the JSON API also needs the token, which such a page cannot have).
 */
final class AdminAccess {
    private final Set<String> hosts;

    /** @param host the configured host, as written ({@code 127.0.0.1}, {@code localhost}, {@code ::1}) */
    AdminAccess(String host, int port) {
        String configured = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        this.hosts = new TreeSet<>(List.of(configured + ":" + port, "127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port));
    }

    /** Why a request with these headers is refused, or {@code null} when it is answered. */
    String refusal(String hostHeader, String origin) {
        if (hostHeader == null || !hosts.contains(hostHeader.trim().toLowerCase(Locale.ROOT))) {
            return "the Host header must name this loopback server (" + String.join(", ", hosts) + ")";
        }
        if (origin != null && !(origin.regionMatches(true, 0, "http://", 0, 7)
                && hosts.contains(origin.substring(7).toLowerCase(Locale.ROOT)))) {
            return "requests from another origin are refused";
        }
        return null;
    }
}
