package dev.mcppolicy.policy;

/**
 * Tool-name globs: {@code *} matches any run of characters, {@code ?} any one character; everything
 * else matches itself. Matching is linear in practice and never backtracks more than once per star.
 */
public final class Glob {
    private Glob() {
    }

    public static boolean isGlob(String pattern) {
        return pattern.indexOf('*') >= 0 || pattern.indexOf('?') >= 0;
    }

    /** The characters before the first wildcard: what decides precedence among globs. */
    public static String literalPrefix(String pattern) {
        int star = pattern.indexOf('*');
        int question = pattern.indexOf('?');
        int end = star < 0 ? question : question < 0 ? star : Math.min(star, question);
        return end < 0 ? pattern : pattern.substring(0, end);
    }

    public static boolean matches(String pattern, String name) {
        int p = 0;
        int n = 0;
        int starAt = -1;
        int resumeAt = 0;
        while (n < name.length()) {
            if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == name.charAt(n))) {
                p++;
                n++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                starAt = p++;
                resumeAt = n;
            } else if (starAt >= 0) {
                p = starAt + 1;
                n = ++resumeAt;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }
}
