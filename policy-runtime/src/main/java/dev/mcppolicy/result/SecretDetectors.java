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
import java.util.List;
import java.util.Locale;

/**
 * The built-in {@code secrets} detectors of a result rule's {@code redact} (SPEC §13): published rules, not ours
 * (gitleaks' {@code config/gitleaks.toml}, MIT; one after detect-secrets), kept as data in {@code secrets.tsv}
 * beside this class. Each detector is an RE2 pattern (linear time, as conditions are) behind a keyword prefilter:
 * its pattern runs only in a bounded window around one of its keywords, found in one pass over the text, so a text
 * with none costs that pass alone. Thread-safe and immutable.
 */
public final class SecretDetectors {
    private static final String RESOURCE = "secrets.tsv";

    private final String[] ids;
    private final String[][] keywords;
    private final int[] groups;
    /** How far a match may start before a keyword, and end after the keyword's start: the window its regex runs in. */
    private final int[] before;
    private final int[] after;
    private final Pattern[] patterns;
    private final String[] markers;
    /** Every keyword, lowercase ASCII, and by its first two chars the pairs (keyword, detector) that start so. */
    private final byte[][] words;
    private final int[][] byBigram;
    /** The same first two chars as a bit set (2 KB, so the pass over the text stays in the L1 cache). */
    private final long[] bigrams = new long[(1 << 14) / 64];

    private SecretDetectors(List<String[]> rows) {
        int n = rows.size();
        ids = new String[n];
        keywords = new String[n][];
        groups = new int[n];
        before = new int[n];
        after = new int[n];
        patterns = new Pattern[n];
        markers = new String[n];
        for (int i = 0; i < n; i++) {
            String[] row = rows.get(i);
            ids[i] = row[0];
            keywords[i] = row[1].split(",");
            groups[i] = Integer.parseInt(row[2]);
            before[i] = Integer.parseInt(row[3]);
            after[i] = Integer.parseInt(row[4]);
            patterns[i] = Pattern.compile(row[5]);
            markers[i] = "[REDACTED:" + ids[i] + "]";
        }
        List<byte[]> allWords = new ArrayList<>();
        List<List<Integer>> table = new ArrayList<>(java.util.Collections.nCopies(1 << 14, (List<Integer>) null));
        for (int i = 0; i < n; i++) {
            for (String keyword : keywords[i]) {
                byte[] word = keyword.getBytes(StandardCharsets.US_ASCII);
                if (word.length < 2 || !keyword.equals(keyword.toLowerCase(Locale.ROOT))) {
                    throw new IllegalStateException(RESOURCE + " (" + ids[i] + "): keyword \"" + keyword + "\" must be lowercase ASCII, 2 chars or more");
                }
                int key = (word[0] << 7) | word[1];
                if (table.get(key) == null) {
                    table.set(key, new ArrayList<>());
                }
                table.get(key).add(allWords.size());
                table.get(key).add(i);
                allWords.add(word);
            }
        }
        words = allWords.toArray(new byte[0][]);
        byBigram = new int[1 << 14][];
        for (int key = 0; key < byBigram.length; key++) {
            if (table.get(key) != null) {
                byBigram[key] = table.get(key).stream().mapToInt(Integer::intValue).toArray();
                bigrams[key >>> 6] |= 1L << key;
            }
        }
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
                    Pattern.compile(row[5]);
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
     * of detector {@code i}; the same instance when none matched. Each detector's regex runs only in windows around
     * its keywords (so the text is scanned for keywords, not by every regex); where two detectors' matches overlap,
     * the one earlier in the file wins. Linear in the text: each window is bounded and windows of one detector merge.
     */
    public String redact(String text, int[] counts) {
        Ints hits = keywordHits(text);
        if (hits == null) {
            return text;
        }
        Ints spans = new Ints();
        for (int i = 0; i < patterns.length; i++) {
            int windowStart = -1;
            int windowEnd = -1;
            for (int h = 0; h <= hits.size; h += 2) {
                int at = h < hits.size ? hits.values[h] : -1;
                if (at >= 0 && hits.values[h + 1] != i) {
                    continue;
                }
                int from = Math.max(0, at - before[i] - 1);
                if (at >= 0 && windowStart >= 0 && from <= windowEnd) {
                    windowEnd = Math.max(windowEnd, (int) Math.min(text.length(), (long) at + after[i] + 1));
                    continue;
                }
                if (windowStart >= 0) {
                    match(i, text, windowStart, windowEnd, spans);
                }
                // past the last hit (at < 0) the loop ends here
                windowStart = from;
                windowEnd = (int) Math.min(text.length(), (long) at + after[i] + 1);
            }
        }
        return spans.size == 0 ? text : rewrite(text, spans, counts);
    }

    /** A growable list of ints: keyword hits as pairs (position, detector), matches as triples (start, end, detector). */
    private static final class Ints {
        int[] values = new int[24];
        int size;

        void add(int a, int b) {
            if (size + 2 > values.length) {
                values = java.util.Arrays.copyOf(values, values.length * 2);
            }
            values[size++] = a;
            values[size++] = b;
        }

        void add(int a, int b, int c) {
            if (size + 3 > values.length) {
                values = java.util.Arrays.copyOf(values, values.length * 2);
            }
            values[size++] = a;
            values[size++] = b;
            values[size++] = c;
        }
    }

    /**
     * Where a keyword starts, in one pass over the text: pairs (position, detector) in text order; {@code null} when
     * there is none. The text's chars are read as Latin-1 bytes (one per char, so positions hold; any other char is
     * no keyword's), and each pair of chars, lowercased, is looked up in a bit set of the keywords' first two chars
     * before any keyword is compared.
     */
    private Ints keywordHits(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        Ints hits = null;
        int last = bytes.length - 1;
        for (int p = 0; p < last; p++) {
            int key = (LOWER[bytes[p] & 0xff] << 7) | LOWER[bytes[p + 1] & 0xff];
            if ((bigrams[key >>> 6] & (1L << key)) == 0) {
                continue;
            }
            int[] candidates = byBigram[key];
            for (int c = 0; c < candidates.length; c += 2) {
                if (startsWith(bytes, p, words[candidates[c]])) {
                    if (hits == null) {
                        hits = new Ints();
                    }
                    hits.add(p, candidates[c + 1]);
                }
            }
        }
        return hits;
    }

    private static boolean startsWith(byte[] text, int at, byte[] word) {
        if (at + word.length > text.length) {
            return false;
        }
        for (int k = 2; k < word.length; k++) {
            if (LOWER[text[at + k] & 0xff] != word[k]) {
                return false;
            }
        }
        return true;
    }

    /** ASCII lowercased, anything else 0 (no keyword holds it). */
    private static final byte[] LOWER = new byte[256];

    static {
        for (int c = 1; c < 128; c++) {
            LOWER[c] = (byte) (c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
    }

    /** Adds the matches of detector {@code i} in {@code text[from, to)} to {@code spans}, but none that overlaps one found before. */
    private void match(int i, String text, int from, int to, Ints spans) {
        Matcher matcher = patterns[i].matcher(from == 0 && to == text.length() ? text : text.subSequence(from, to));
        int group = groups[i];
        while (matcher.find()) {
            int start = matcher.start(group);
            int end = matcher.end(group);
            if (start < 0 || end <= start) {
                continue;
            }
            start += from;
            end += from;
            boolean overlaps = false;
            for (int k = 0; k < spans.size && !overlaps; k += 3) {
                overlaps = start < spans.values[k + 1] && spans.values[k] < end;
            }
            if (!overlaps) {
                spans.add(start, end, i);
            }
        }
    }

    private String rewrite(String text, Ints found, int[] counts) {
        int[] spans = found.values;
        int n = found.size / 3;
        Integer[] order = new Integer[n];
        for (int k = 0; k < n; k++) {
            order[k] = k;
        }
        java.util.Arrays.sort(order, (a, b) -> Integer.compare(spans[3 * a], spans[3 * b]));
        StringBuilder out = new StringBuilder(text.length());
        int from = 0;
        for (Integer k : order) {
            int detector = spans[3 * k + 2];
            out.append(text, from, spans[3 * k]).append(markers[detector]);
            from = spans[3 * k + 1];
            counts[detector]++;
        }
        return out.append(text, from, text.length()).toString();
    }
}
