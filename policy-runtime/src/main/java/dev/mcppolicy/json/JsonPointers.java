package dev.mcppolicy.json;

/** JSON Pointer (RFC 6901) helpers. */
public final class JsonPointers {
    private JsonPointers() {
    }

    /** Escapes one reference token: {@code ~} as {@code ~0}, {@code /} as {@code ~1}. */
    public static String escape(String token) {
        if (token.indexOf('~') < 0 && token.indexOf('/') < 0) {
            return token;
        }
        return token.replace("~", "~0").replace("/", "~1");
    }
}
