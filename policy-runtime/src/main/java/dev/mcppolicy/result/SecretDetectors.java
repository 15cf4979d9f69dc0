package dev.mcppolicy.result;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The built-in {@code secrets} detectors of a result rule's {@code redact} (SPEC §13): published rules (gitleaks'
 * {@code config/gitleaks.toml}, MIT; two after detect-secrets, Apache-2.0) and one of ours for database URLs, kept as
 * data in {@code secrets.tsv} beside this class. Each detector is an RE2 pattern (linear time, as conditions are) behind
 * keywords: the text is scanned once for every detector's keywords ({@link Keywords}), and a detector's pattern is
 * tried only where one of its keywords is, anchored there, in a bounded window. A text with no keyword costs the
 * scan alone. Thread-safe and immutable.
 *
 * <p>Before RE2/J runs (~0.2 µs a call and 25-50 ns a char), plain Java rules out what cannot match there: a
 * {@code \b} the pattern starts with, and for three detectors what their pattern needs after the keyword (a URL's
 * {@code user:password@}, a private key's END line), which also bounds the window the pattern runs in; a database
 * URL whose password an earlier detector has redacted is not tried again. These only ever say no where the pattern
 * would (or where its secret would be dropped); the pattern decides every match.
 */
public final class SecretDetectors {
    private static final String RESOURCE = "secrets.tsv";

    /** What is checked in plain Java before a detector's pattern runs (ints, not an enum: a switch on one is a class more). */
    private static final int KEYWORD = 0;
    private static final int URL_PASSWORD = 1;
    private static final int DATABASE_URL = 2;
    private static final int PRIVATE_KEY = 3;

    private final String[] ids;
    private final int[] groups;
    /** How far a match may start before a keyword, and end after the keyword's start: the window its regex runs in. */
    private final int[] before;
    private final int[] after;
    private final int[] checks;
    /** Whether the pattern starts with {@code \b}, so at the keyword when {@code before} is 0. */
    private final boolean[] boundary;
    /** {@code ^(?s:.)(?:R)}: R where the view starts, one char into it (the char before, for {@code \b}). */
    private final Pattern[] anchored;
    /** {@code (?s:.)(?:R)}: R anywhere in the view past its first char, for a match that may start before its keyword. */
    private final Pattern[] unanchored;
    private final String[] markers;
    private final Keywords keywords;

    private SecretDetectors(List<String[]> rows) {
        int n = rows.size();
        ids = new String[n];
        groups = new int[n];
        before = new int[n];
        after = new int[n];
        checks = new int[n];
        boundary = new boolean[n];
        anchored = new Pattern[n];
        unanchored = new Pattern[n];
        markers = new String[n];
        List<String[]> specs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String[] row = rows.get(i);
            ids[i] = row[0];
            specs.add(row[1].split(","));
            groups[i] = Integer.parseInt(row[2]);
            before[i] = Integer.parseInt(row[3]);
            after[i] = Integer.parseInt(row[4]);
            String regex = row[5];
            checks[i] = switch (ids[i]) {
                case "basic-auth-url" -> URL_PASSWORD;
                case "database-connection-string" -> DATABASE_URL;
                case "private-key" -> PRIVATE_KEY;
                default -> KEYWORD;
            };
            boundary[i] = (regex.startsWith("(?i)") ? regex.substring(4) : regex).startsWith("\\b");
            anchored[i] = Pattern.compile("^(?s:.)(?:" + regex + ")");
            if (before[i] > 0 && checks[i] == KEYWORD) {
                unanchored[i] = Pattern.compile("(?s:.)(?:" + regex + ")");
            }
            markers[i] = "[REDACTED:" + ids[i] + "]";
        }
        keywords = new Keywords(specs);
    }

    /** The set this version ships, read and compiled once. */
    public static SecretDetectors builtIn() {
        return Holder.BUILT_IN;
    }

    private static final class Holder {
        static final SecretDetectors BUILT_IN = load();
    }

    private static SecretDetectors load() {
        List<String[]> rows = new ArrayList<>();
        try (InputStream in = SecretDetectors.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the secrets detectors are missing from the class path (" + RESOURCE + ")");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int number = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                number++;
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] row = line.split("\t", 6);
                if (row.length != 6 || row[0].isEmpty() || row[1].isEmpty() || !row[2].matches("[0-9]")
                        || !row[3].matches("[0-9]{1,5}") || !row[4].matches("[0-9]{1,5}")) {
                    throw new IllegalStateException(RESOURCE + " line " + number + ": expected id, keywords, group, before, after, regex");
                }
                try {
                    Pattern pattern = Pattern.compile(row[5]);
                    if (Integer.parseInt(row[2]) > pattern.groupCount()) {
                        throw new IllegalArgumentException("no group " + row[2]);
                    }
                    for (String keyword : row[1].split(",")) {
                        Keywords.parse(keyword, new int[1]);
                    }
                } catch (RuntimeException e) {
                    throw new IllegalStateException(RESOURCE + " line " + number + " (" + row[0] + "): " + e.getMessage(), e);
                }
                rows.add(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new SecretDetectors(rows);
    }

    public int size() {
        return ids.length;
    }

    /** The detector's name in the log: {@code aws-access-token}. */
    public String id(int i) {
        return ids[i];
    }

    public List<String> ids() {
        return List.of(ids);
    }

    /**
     * {@code text} with each secret replaced by {@code [REDACTED:<id>]}, and {@code counts[i]} raised by the redactions
     * of detector {@code i}; the same instance when none matched. Each detector's regex runs only where one of its
     * keywords is, once per keyword that no earlier match of the detector holds; where two detectors' matches
     * overlap, the one earlier in the file wins. Linear in the text: one scan, and each try bounded by its window.
     */
    public String redact(String text, int[] counts) {
        Keywords.Hits hits = keywords.scan(text);
        if (hits == null) {
            return text;
        }
        Attempt attempt = new Attempt(text);
        int detector = -1;
        int done = 0;
        for (int h = 0; h < hits.size; h++) {
            int d = (int) (hits.values[h] >>> 32);
            int at = (int) hits.values[h];
            if (d != detector) {
                detector = d;
                done = 0;
            }
            if (at < done || !match(d, at, done, attempt)) {
                continue;
            }
            done = attempt.matchEnd;
            if (attempt.start < attempt.end) {
                attempt.found = attempt.found == null ? new Found(text.length()) : attempt.found;
                attempt.found.add(attempt.start, attempt.end, d);
            }
        }
        Found found = attempt.found;
        return found == null || found.size == 0 ? text : found.rewrite(text, markers, counts);
    }

    /**
     * One call's state: the text, the last match, the secrets found so far, and where the text's private key END
     * lines are (found once).
     */
    private static final class Attempt {
        final String text;
        int start;
        int end;
        int matchEnd;
        Found found;
        int[] endLines;

        Attempt(String text) {
            this.text = text;
        }
    }

    /**
     * Tries detector {@code d} at its keyword at {@code at}, for a match that starts at {@code done} or later: sets
     * {@code t.start}, {@code t.end} (the secret) and {@code t.matchEnd} and returns true when it matches.
     */
    private boolean match(int d, int at, int done, Attempt t) {
        String text = t.text;
        int n = text.length();
        int windowEnd = (int) Math.min(n, (long) at + after[d] + 1);
        int from;
        int to = windowEnd;
        boolean anywhere = false;
        switch (checks[d]) {
            case URL_PASSWORD -> {
                // [a-zA-Z][a-zA-Z0-9+.-]* before "://", then [^\s:@/{}"'<>]+ : [^\s:@/{}"'<>]+ @
                int low = Math.max(done, at - before[d] - 1);
                int scheme = at;
                while (scheme > low && isSchemeChar(text.charAt(scheme - 1))) {
                    scheme--;
                }
                while (scheme < at && !isAsciiLetter(text.charAt(scheme))) {
                    scheme++;
                }
                int colon = userinfo(text, at + 3, windowEnd);
                if (scheme == at || colon < 0 || text.charAt(colon) != ':') {
                    return false;
                }
                int sign = userinfo(text, colon + 1, windowEnd);
                if (sign < 0 || text.charAt(sign) != '@') {
                    return false;
                }
                from = scheme;
                to = Math.min(n, sign + 2);
            }
            case DATABASE_URL -> {
                // \b scheme://, then [^\s:@/{}"'<>]* : [^\s@/{}"'<>]+ @ : the password is where it ends; one that an
                // earlier detector's secret overlaps (basic-auth-url's, where both match) would be dropped, so RE2/J
                // does not run for it
                if (isWordChar(at > 0 ? text.charAt(at - 1) : ' ')) {
                    return false;
                }
                int colon = at;
                while (colon < windowEnd && isSchemeChar(text.charAt(colon))) {
                    colon++;
                }
                if (colon + 3 > windowEnd || !text.startsWith("://", colon)) {
                    return false;
                }
                int user = colon + 3;
                while (user < windowEnd && isUserinfoChar(text.charAt(user))) {
                    user++;
                }
                if (user >= windowEnd || text.charAt(user) != ':') {
                    return false;
                }
                int sign = user + 1;
                while (sign < windowEnd && (isUserinfoChar(text.charAt(sign)) || text.charAt(sign) == ':')) {
                    sign++;
                }
                if (sign == user + 1 || sign >= windowEnd || text.charAt(sign) != '@' || (t.found != null && t.found.covers(user + 1, sign))) {
                    return false;
                }
                from = at;
                to = Math.min(n, sign + 2);
            }
            case PRIVATE_KEY -> {
                int header = privateKeyLine(text, at + "-----BEGIN".length(), windowEnd);
                int endLine = header < 0 ? -1 : firstEndLine(t, header + 64);
                if (endLine < 0 || endLine >= windowEnd) {
                    return false;
                }
                from = at;
                to = Math.min(windowEnd, endLine + END_LINE_MAX + 1);
            }
            default -> {
                if (before[d] > 0) {
                    from = Math.max(done, at - before[d] - 1);
                    anywhere = true;
                } else {
                    if (boundary[d] && isWordChar(at > 0 ? text.charAt(at - 1) : ' ') == isWordChar(text.charAt(at))) {
                        return false;
                    }
                    from = at;
                }
            }
        }
        // the view starts one char before the match may (a newline before the text's first char), so \b sees it
        Matcher matcher = (anywhere ? unanchored[d] : anchored[d]).matcher(new View(text, from - 1, to));
        if (!(anywhere ? matcher.find() : matcher.lookingAt())) {
            return false;
        }
        int base = from - 1;
        int group = groups[d];
        if (group == 0) {
            int first = base + matcher.start();
            t.start = first + (Character.isHighSurrogate(charAt(text, first)) && Character.isLowSurrogate(charAt(text, first + 1)) ? 2 : 1);
            t.end = base + matcher.end();
        } else {
            t.start = matcher.start(group) < 0 ? 0 : base + matcher.start(group);
            t.end = matcher.start(group) < 0 ? 0 : base + matcher.end(group);
        }
        t.matchEnd = base + matcher.end();
        return true;
    }

    private static char charAt(String text, int i) {
        return i >= 0 && i < text.length() ? text.charAt(i) : '\n';
    }

    /** RE2's {@code \b} is ASCII: {@code [0-9A-Za-z_]}. */
    private static boolean isWordChar(char c) {
        return c < 128 && (c == '_' || isAsciiLetter(c) || (c >= '0' && c <= '9'));
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isSchemeChar(char c) {
        return isAsciiLetter(c) || (c >= '0' && c <= '9') || c == '+' || c == '.' || c == '-';
    }

    /**
     * The first char at or past {@code from} that {@code [^\s:@/{}"'<>]} does not take (RE2's {@code \s} is
     * {@code [\t\n\f\r ]}), when at least one char before it does and it is before {@code end}; else -1.
     */
    private static int userinfo(String text, int from, int end) {
        int i = from;
        while (i < end && isUserinfoChar(text.charAt(i))) {
            i++;
        }
        return i == from || i >= end ? -1 : i;
    }

    /** {@code [^\s:@/{}"'<>]}, RE2's {@code \s} being {@code [\t\n\f\r ]}. */
    private static boolean isUserinfoChar(char c) {
        return !(c == ' ' || c == ':' || c == '@' || c == '/' || c == '{' || c == '}' || c == '"' || c == '\'' || c == '<'
                || c == '>' || c == '\t' || c == '\n' || c == '\f' || c == '\r');
    }

    /** The longest END line: {@code -----END}, 100 chars, {@code PRIVATE KEY BLOCK-----}. */
    private static final int END_LINE_MAX = 8 + 100 + 22;

    /**
     * Where {@code [ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----} (any case) starting at {@code from} ends first,
     * before {@code end}; else -1.
     */
    private static int privateKeyLine(String text, int from, int end) {
        for (int i = from; i <= from + 100 && i < end; i++) {
            if (text.regionMatches(true, i, "PRIVATE KEY", 0, 11)) {
                int k = i + 11;
                if (k + 5 <= end && text.startsWith("-----", k)) {
                    return k + 5;
                }
                if (k + 11 <= end && text.regionMatches(true, k, " BLOCK-----", 0, 11)) {
                    return k + 11;
                }
            }
            if (!isKeyLineChar(text.charAt(i))) {
                return -1;
            }
        }
        return -1;
    }

    /** {@code [ A-Z0-9_-]} under {@code (?i)}: RE2 folds K to the Kelvin sign and S to the long s too. */
    private static boolean isKeyLineChar(char c) {
        return isAsciiLetter(c) || (c >= '0' && c <= '9') || c == ' ' || c == '_' || c == '-' || c == '\u212A' || c == '\u017F';
    }

    /**
     * The first private key END line ({@code -----END}, any case, then what {@link #privateKeyLine} takes) that
     * starts at {@code from} or later, or -1. The text's END lines are found on the first call, in one pass.
     */
    private static int firstEndLine(Attempt t, int from) {
        if (t.endLines == null) {
            String text = t.text;
            int[] lines = new int[4];
            int count = 0;
            for (int i = text.indexOf("-----"); i >= 0; i = text.indexOf("-----", i + 1)) {
                if (text.regionMatches(true, i + 5, "END", 0, 3) && privateKeyLine(text, i + 8, text.length()) >= 0) {
                    lines = count == lines.length ? Arrays.copyOf(lines, count * 2) : lines;
                    lines[count++] = i;
                }
            }
            t.endLines = Arrays.copyOf(lines, count);
        }
        int k = Arrays.binarySearch(t.endLines, from);
        k = k >= 0 ? k : -k - 1;
        return k < t.endLines.length ? t.endLines[k] : -1;
    }

    /**
     * {@code text[from, to)} for RE2/J without copying it; {@code from} may be -1, a newline before the text (so a
     * {@code \b} at the text's start sees what it would at the start of the text).
     */
    private static final class View implements CharSequence {
        private final String text;
        private final int from;
        private final int to;

        View(String text, int from, int to) {
            this.text = text;
            this.from = from;
            this.to = to;
        }

        @Override
        public int length() {
            return to - from;
        }

        @Override
        public char charAt(int index) {
            int i = from + index;
            return i < 0 ? '\n' : text.charAt(i);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return toString().substring(start, end);
        }

        @Override
        public String toString() {
            return from < 0 ? "\n" + text.substring(0, to) : text.substring(from, to);
        }
    }

    /**
     * The secrets found: (start, end, detector) triples, and which chars they cover, so a match that overlaps one
     * found before is dropped in time linear in its length.
     */
    private static final class Found {
        int[] spans = new int[24];
        int size;
        final long[] covered;

        Found(int length) {
            covered = new long[(length >>> 6) + 1];
        }

        /** Whether a secret found covers a char of {@code [start, end)}. */
        boolean covers(int start, int end) {
            for (int i = start; i < end; i++) {
                if ((covered[i >>> 6] & (1L << i)) != 0) {
                    return true;
                }
            }
            return false;
        }

        void add(int start, int end, int detector) {
            if (covers(start, end)) {
                return;
            }
            for (int i = start; i < end; i++) {
                covered[i >>> 6] |= 1L << i;
            }
            if (size + 3 > spans.length) {
                spans = Arrays.copyOf(spans, spans.length * 2);
            }
            spans[size++] = start;
            spans[size++] = end;
            spans[size++] = detector;
        }

        /** The pieces between the secrets and the markers, joined (one exact-size array, not zeroed first). */
        String rewrite(String text, String[] markers, int[] counts) {
            int n = size / 3;
            long[] order = new long[n];
            for (int k = 0; k < n; k++) {
                order[k] = (long) spans[3 * k] << 32 | k;
            }
            Arrays.sort(order);
            String[] pieces = new String[2 * n + 1];
            int from = 0;
            for (int i = 0; i < n; i++) {
                int k = (int) order[i];
                int detector = spans[3 * k + 2];
                pieces[2 * i] = text.substring(from, spans[3 * k]);
                pieces[2 * i + 1] = markers[detector];
                from = spans[3 * k + 1];
                counts[detector]++;
            }
            pieces[2 * n] = text.substring(from);
            return String.join("", pieces);
        }
    }
}
