package dev.mcppolicy.policy;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The form a resource URI is matched in (SPEC §12), so that no spelling of a URI reaches what its rule
 * denies: {@code file:///public/%2e%2e/etc/passwd} is {@code file:///etc/passwd}, which
 * {@code file:///public/*} does not match. In order:
 * <ol>
 *   <li>percent-escapes are decoded as UTF-8, all of them (RFC 3986 §6.2.2.2 decodes only unreserved
 *       characters, but a server that decodes {@code %2F} or {@code %2E%2E} itself would otherwise read
 *       another file than the one matched), and again while a round still decodes something, up to
 *       {@value #MAX_ROUNDS} rounds, so {@code %252e} is a dot too;
 *   <li>{@code \} becomes {@code /} (a Windows path separator some servers honour);
 *   <li>the scheme and the authority are lower-cased;
 *   <li>{@code .} and {@code ..} segments of the path are removed (RFC 3986 §5.2.4); a {@code ..} above
 *       the root is dropped, as the RFC does, so the URI still names a place under it.
 * </ol>
 * A URI that cannot be normalized (a malformed or NUL escape, bytes that are not UTF-8, escapes still
 * decoding after {@value #MAX_ROUNDS} rounds, a control character, longer than {@value #MAX_LENGTH}
 * chars) has no normalized form: a read of it is denied.
 */
public final class ResourceUris {
    /** The most chars of a URI that are normalized; a longer one is denied. */
    public static final int MAX_LENGTH = 8192;
    private static final int MAX_ROUNDS = 3;

    private ResourceUris() {
    }

    /** The normalized form of {@code uri}, or {@code null} when it has none (see {@link #problem}). */
    public static String normalizeOrNull(String uri) {
        return problem(uri) == null ? normalize(uri) : null;
    }

    /** Why {@code uri} has no normalized form, or {@code null} when it has one. */
    public static String problem(String uri) {
        if (uri.length() > MAX_LENGTH) {
            return "longer than " + MAX_LENGTH + " characters";
        }
        String decoded = uri;
        for (int round = 0; round <= MAX_ROUNDS; round++) {
            if (decoded.indexOf('%') < 0) {
                return controls(decoded);
            }
            if (round == MAX_ROUNDS) {
                return "percent-escapes still decode after " + MAX_ROUNDS + " rounds";
            }
            String next = decodeOrNull(decoded);
            if (next == null) {
                return "a malformed percent-escape, or escaped bytes that are not UTF-8";
            }
            if (next.equals(decoded)) {
                return controls(decoded);
            }
            decoded = next;
        }
        return null;
    }

    private static String controls(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return "a control character (U+" + String.format(Locale.ROOT, "%04X", (int) c) + ")";
            }
        }
        return null;
    }

    private static String normalize(String uri) {
        String decoded = uri;
        while (decoded.indexOf('%') >= 0) {
            String next = decodeOrNull(decoded);
            if (next == null || next.equals(decoded)) {
                break;
            }
            decoded = next;
        }
        decoded = decoded.replace('\\', '/');
        int colon = decoded.indexOf(':');
        int firstSlash = decoded.indexOf('/');
        String scheme = "";
        String rest = decoded;
        if (colon > 0 && (firstSlash < 0 || colon < firstSlash) && isScheme(decoded, colon)) {
            scheme = decoded.substring(0, colon + 1).toLowerCase(Locale.ROOT);
            rest = decoded.substring(colon + 1);
        }
        String authority = "";
        if (rest.startsWith("//")) {
            int end = 2;
            while (end < rest.length() && "/?#".indexOf(rest.charAt(end)) < 0) {
                end++;
            }
            authority = rest.substring(0, end).toLowerCase(Locale.ROOT);
            rest = rest.substring(end);
        }
        int tail = rest.length();
        for (int i = 0; i < rest.length(); i++) {
            if (rest.charAt(i) == '?' || rest.charAt(i) == '#') {
                tail = i;
                break;
            }
        }
        return scheme + authority + removeDotSegments(rest.substring(0, tail)) + rest.substring(tail);
    }

    private static boolean isScheme(String text, int colon) {
        if (!Character.isLetter(text.charAt(0))) {
            return false;
        }
        for (int i = 1; i < colon; i++) {
            char c = text.charAt(i);
            if (!(c < 0x80 && (Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.'))) {
                return false;
            }
        }
        return true;
    }

    /** RFC 3986 §5.2.4. */
    static String removeDotSegments(String path) {
        if (path.indexOf('.') < 0) {
            return path;
        }
        StringBuilder out = new StringBuilder(path.length());
        String in = path;
        while (!in.isEmpty()) {
            if (in.startsWith("../")) {
                in = in.substring(3);
            } else if (in.startsWith("./")) {
                in = in.substring(2);
            } else if (in.startsWith("/./")) {
                in = in.substring(2);
            } else if (in.equals("/.")) {
                in = "/";
            } else if (in.startsWith("/../")) {
                in = in.substring(3);
                dropLastSegment(out);
            } else if (in.equals("/..")) {
                in = "/";
                dropLastSegment(out);
            } else if (in.equals(".") || in.equals("..")) {
                in = "";
            } else {
                int next = in.indexOf('/', in.startsWith("/") ? 1 : 0);
                if (next < 0) {
                    next = in.length();
                }
                out.append(in, 0, next);
                in = in.substring(next);
            }
        }
        return out.toString();
    }

    private static void dropLastSegment(StringBuilder out) {
        int slash = out.lastIndexOf("/");
        out.setLength(Math.max(slash, 0));
    }

    /** One round of percent-decoding as UTF-8; {@code null} for a malformed escape, a NUL, or bytes that are not UTF-8. */
    private static String decodeOrNull(String text) {
        StringBuilder out = new StringBuilder(text.length());
        ByteBuffer bytes = ByteBuffer.allocate(text.length());
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c != '%') {
                out.append(c);
                i++;
                continue;
            }
            bytes.clear();
            while (i < text.length() && text.charAt(i) == '%') {
                if (i + 2 >= text.length()) {
                    return null;
                }
                int high = Character.digit(text.charAt(i + 1), 16);
                int low = Character.digit(text.charAt(i + 2), 16);
                if (high < 0 || low < 0 || high == 0 && low == 0) {
                    return null;
                }
                bytes.put((byte) (high << 4 | low));
                i += 3;
            }
            bytes.flip();
            try {
                CharBuffer chars = utf8.decode(bytes);
                out.append(chars);
            } catch (CharacterCodingException e) {
                return null;
            }
        }
        return out.toString();
    }
}
