package dev.mcppolicy.result;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The detectors' keywords, found in one pass over a text that reads a pair of chars at every second position.
 *
 * <p>A keyword is a run of items, each an ASCII char or a class of them. Each keyword names three adjacent items,
 * so two adjacent pairs; whichever of the two starts at an even position is read by the pass, so every occurrence
 * is found once. A pair is looked up in a table of 65,536 bytes (pairs of ASCII chars touch 12 KB of it, which
 * stays in the L1 cache); only where its byte is set are the keywords it names compared with the text. The
 * pass reads a copy of each char's low byte (so positions hold; the comparisons read the text's own chars, so a char
 * past Latin-1 whose low byte is a keyword's is no keyword), eight bytes at a time, four pairs a read. A quoted keyword (one with no pair rare enough) is found with {@link String#indexOf(String, int)}
 * instead: one more pass, which the JDK runs with SIMD.
 */
final class Keywords {

    /** Per keyword: its detector, and per item two longs, the ASCII chars it takes. */
    private final int[] detectors;
    private final long[][] items;
    /**
     * By pair (first char | second char << 8), 0 or the number of the keywords that hold it in {@link #lists}
     * (unsigned; pairs held by the same keywords at the same offsets share a number).
     */
    private final byte[] pairs = new byte[1 << 16];
    /** The (keyword, offset of the pair in it) entries a pair's number stands for; 0 stands for none. */
    private final int[][] lists;
    /** The array the last call copied its text into, for the next one; none past {@link #SPARE_MAX} bytes is kept. */
    private final AtomicReference<byte[]> spare = new AtomicReference<>();
    private static final int SPARE_MAX = 1 << 20;
    /** Quoted keywords, found with {@link String#indexOf(String, int)} instead of by pairs, and their detectors. */
    private final String[] literals;
    private final int[] literalDetectors;

    /** @param specs per detector, its keywords as written in {@code secrets.tsv} */
    Keywords(List<String[]> specs) {
        List<long[]> all = new ArrayList<>();
        List<Integer> owners = new ArrayList<>();
        List<int[]> anchors = new ArrayList<>();
        for (int d = 0; d < specs.size(); d++) {
            for (int i = 0; i < specs.get(d).length; i++) {
                int[] anchor = new int[1];
                all.add(parse(specs.get(d)[i], anchor));
                owners.add(d);
                // a quoted keyword: where its spec is, to read the literal back
                anchors.add(anchor[0] < 0 ? new int[] {-i - 1} : anchor);
            }
        }
        detectors = ints(owners);
        items = all.toArray(new long[0][]);
        List<String> quoted = new ArrayList<>();
        List<Integer> quotedOwners = new ArrayList<>();
        // every pair of chars each keyword's two pairs can be, with the keyword and where the pair starts in it
        List<int[]> entries = new ArrayList<>();
        for (int k = 0; k < items.length; k++) {
            int first = anchors.get(k)[0];
            if (first < 0) {
                String spec = specs.get(detectors[k])[-first - 1];
                quoted.add(spec.substring(1, spec.length() - 1));
                quotedOwners.add(detectors[k]);
                continue;
            }
            for (int offset = first; offset <= first + 1; offset++) {
                for (int a = 0; a < 128; a++) {
                    if (!takes(items[k], offset, (char) a)) {
                        continue;
                    }
                    for (int b = 0; b < 128; b++) {
                        if (takes(items[k], offset + 1, (char) b)) {
                            entries.add(new int[] {a | b << 8, k, offset});
                        }
                    }
                }
            }
        }
        // no lambdas here: each would spin a class when the policy that lists secrets loads (issue 16)
        Map<Integer, List<Integer>> byPair = new TreeMap<>();
        for (int[] entry : entries) {
            List<Integer> list = byPair.get(entry[0]);
            if (list == null) {
                list = new ArrayList<>();
                byPair.put(entry[0], list);
            }
            list.add(entry[1]);
            list.add(entry[2]);
        }
        Map<List<Integer>, Integer> numbers = new HashMap<>();
        List<int[]> distinct = new ArrayList<>();
        distinct.add(new int[0]);
        for (Map.Entry<Integer, List<Integer>> pair : byPair.entrySet()) {
            Integer number = numbers.get(pair.getValue());
            if (number == null) {
                distinct.add(ints(pair.getValue()));
                number = distinct.size() - 1;
                numbers.put(pair.getValue(), number);
            }
            if (number > 255) {
                throw new IllegalStateException("more than 255 distinct sets of keywords hold a pair");
            }
            pairs[pair.getKey()] = (byte) (int) number;
        }
        lists = distinct.toArray(new int[0][]);
        literals = quoted.toArray(new String[0]);
        literalDetectors = ints(quotedOwners);
    }

    private static int[] ints(List<Integer> list) {
        int[] ints = new int[list.size()];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = list.get(i);
        }
        return ints;
    }

    private static boolean takes(long[] keyword, int item, char c) {
        return c < 128 && (keyword[2 * item + (c >>> 6)] & (1L << c)) != 0;
    }

    /**
     * A keyword's items (two longs each), and in {@code anchor[0]} the first of the three items it marks. Throws
     * {@link IllegalArgumentException} on anything but printable ASCII, classes of it, and one ( ) around 3 items.
     */
    static long[] parse(String spec, int[] anchor) {
        if (spec.length() >= 2 && spec.startsWith("\"") && spec.endsWith("\"")) {
            // a literal, exact case, found with String.indexOf
            String literal = spec.substring(1, spec.length() - 1);
            long[] items = new long[2 * literal.length()];
            for (int i = 0; i < literal.length(); i++) {
                char c = literal.charAt(i);
                if (c <= 0x20 || c >= 0x7f || c == '"') {
                    throw new IllegalArgumentException("keyword " + spec + ": a quoted keyword is printable ASCII, no space or quote");
                }
                items[2 * i + (c >>> 6)] |= 1L << c;
            }
            if (literal.isEmpty()) {
                throw new IllegalArgumentException("keyword " + spec + ": empty");
            }
            anchor[0] = -1;
            return items;
        }
        boolean anyCase = spec.startsWith("(?i)");
        String s = anyCase ? spec.substring(4) : spec;
        List<long[]> parsed = new ArrayList<>();
        int open = -1;
        int close = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(' || c == ')') {
                if (c == '(' ? open >= 0 : open < 0 || close >= 0) {
                    throw new IllegalArgumentException("keyword " + spec + ": one ( ) around three items");
                }
                if (c == '(') {
                    open = parsed.size();
                } else {
                    close = parsed.size();
                }
                continue;
            }
            long[] item = new long[2];
            if (c == '[') {
                int end = s.indexOf(']', i + 1);
                if (end < 0 || end == i + 1) {
                    throw new IllegalArgumentException("keyword " + spec + ": a [ with no ] or an empty class");
                }
                for (int j = i + 1; j < end; j++) {
                    char from = s.charAt(j);
                    char to = from;
                    if (j + 2 < end && s.charAt(j + 1) == '-') {
                        to = s.charAt(j + 2);
                        j += 2;
                    }
                    for (char x = from; x <= to; x++) {
                        add(item, x, anyCase, spec);
                    }
                }
                i = end;
            } else {
                if (c == '\\') {
                    if (++i == s.length()) {
                        throw new IllegalArgumentException("keyword " + spec + ": ends in \\");
                    }
                    c = s.charAt(i);
                }
                add(item, c, anyCase, spec);
            }
            parsed.add(item);
        }
        if (open >= 0 && (close < 0 || close - open != 3)) {
            throw new IllegalArgumentException("keyword " + spec + ": ( ) must hold three items");
        }
        if (parsed.size() < 3) {
            throw new IllegalArgumentException("keyword " + spec + ": three items or more");
        }
        anchor[0] = Math.max(open, 0);
        long[] items = new long[2 * parsed.size()];
        for (int i = 0; i < parsed.size(); i++) {
            items[2 * i] = parsed.get(i)[0];
            items[2 * i + 1] = parsed.get(i)[1];
        }
        return items;
    }

    private static void add(long[] item, char c, boolean anyCase, String spec) {
        if (c < 0x20 || c > 0x7e) {
            throw new IllegalArgumentException("keyword " + spec + ": printable ASCII only");
        }
        item[c >>> 6] |= 1L << c;
        if (anyCase && Character.isLetter(c)) {
            char other = Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c);
            item[other >>> 6] |= 1L << other;
        }
    }

    /** Whether keyword {@code k} is in {@code text} at {@code at}. */
    private boolean at(int k, String text, int at) {
        long[] keyword = items[k];
        int n = keyword.length / 2;
        if (at < 0 || at > text.length() - n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (!takes(keyword, i, text.charAt(at + i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Where a keyword starts in {@code text}, as {@code detector << 32 | position}, sorted and each once; {@code null}
     * when there is none.
     */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): each char's low byte is what is meant
    Hits scan(String text) {
        int n = text.length();
        // each char's low byte, into the spare array when no other call has it (one fresh 64 KiB array a call was
        // ~2.5 us more here, memory that has to be fetched before it is written)
        byte[] bytes = spare.getAndSet(null);
        if (bytes == null || bytes.length < n) {
            bytes = new byte[n];
        }
        text.getBytes(0, n, bytes, 0);
        ByteBuffer longs = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        final byte[] table = pairs;
        // 0xffff, as table.length - 1 so that C2 drops the range checks of the four loads
        final int mask = table.length - 1;
        Hits hits = null;
        int p = 0;
        for (; p <= n - 8; p += 8) {
            long x = longs.getLong(p);
            if ((table[(int) x & mask] | table[(int) (x >>> 16) & mask] | table[(int) (x >>> 32) & mask] | table[(int) (x >>> 48) & mask]) != 0) {
                hits = look(text, p, x, hits);
            }
        }
        for (; p < n - 1; p += 2) {
            int number = table[(bytes[p] & 0xff) | (bytes[p + 1] & 0xff) << 8] & 0xff;
            if (number != 0) {
                hits = look(text, p, number, hits);
            }
        }
        for (int l = 0; l < literals.length; l++) {
            for (int at = text.indexOf(literals[l]); at >= 0; at = text.indexOf(literals[l], at + 1)) {
                hits = hits == null ? new Hits() : hits;
                hits.add((long) literalDetectors[l] << 32 | at);
            }
        }
        if (bytes.length <= SPARE_MAX) {
            spare.set(bytes);
        }
        if (hits != null) {
            hits.sort();
        }
        return hits;
    }

    /** {@link #look(String, int, int, Hits)} for each of the four pairs in {@code x}, read at {@code p}. */
    private Hits look(String text, int p, long x, Hits hits) {
        for (int i = 0; i < 4; i++) {
            int number = pairs[(int) (x >>> (16 * i)) & 0xffff] & 0xff;
            if (number != 0) {
                hits = look(text, p + 2 * i, number, hits);
            }
        }
        return hits;
    }

    /** Compares the keywords of list {@code number} with the text around {@code p}, where their pair is. */
    private Hits look(String text, int p, int number, Hits hits) {
        int[] entries = lists[number];
        for (int e = 0; e < entries.length; e += 2) {
            int k = entries[e];
            int at = p - entries[e + 1];
            if (at(k, text, at)) {
                if (hits == null) {
                    hits = new Hits();
                }
                hits.add((long) detectors[k] << 32 | at);
            }
        }
        return hits;
    }

    /** A growable list of longs: keyword hits, {@code detector << 32 | position}. */
    static final class Hits {
        long[] values = new long[16];
        int size;

        void add(long value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        /** Sorted (by detector, then position), each once. */
        void sort() {
            Arrays.sort(values, 0, size);
            int kept = 0;
            for (int i = 0; i < size; i++) {
                if (kept == 0 || values[kept - 1] != values[i]) {
                    values[kept++] = values[i];
                }
            }
            size = kept;
        }
    }
}
