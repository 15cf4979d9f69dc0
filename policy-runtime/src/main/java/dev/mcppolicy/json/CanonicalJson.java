package dev.mcppolicy.json;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes JSON-like values as canonical JSON: object keys sorted, no whitespace, numbers in their
 * shortest exact form. Equal arguments always give the same text, so their SHA-256 identifies them.
 * NaN and the infinities, which JSON lacks, are written as the strings {@code "NaN"},
 * {@code "Infinity"} and {@code "-Infinity"}. Any depth, size and content is written in time and memory
 * proportional to the value, recursing at most {@value #RECURSION} levels deep.
 */
public final class CanonicalJson {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CanonicalJson() {
    }

    public static String write(Object value) {
        Utf8 out = new Utf8(64);
        write(value, out, 0);
        return out.string();
    }

    /** Appends the canonical JSON of {@code value} to {@code out}. */
    public static void write(Object value, StringBuilder out) {
        out.append(write(value));
    }

    /** Hex SHA-256 of the canonical JSON of {@code value}. */
    public static String sha256(Object value) {
        return appendSha256(value, new StringBuilder(64)).toString();
    }

    public static String sha256Hex(byte[] bytes) {
        return appendSha256Hex(bytes, new StringBuilder(64)).toString();
    }

    /**
     * Appends the hex SHA-256 of the canonical JSON of {@code value} to {@code out}, the same digits as
     * {@link #sha256}: the JSON is written as UTF-8 straight into this thread's scratch bytes and hashed from
     * there, so no text is made but the digits themselves.
     */
    public static StringBuilder appendSha256(Object value, StringBuilder out) {
        Scratch scratch = SCRATCH.get();
        if (scratch.busy) {
            // re-entered on this thread (a value's toString() that hashes again): a scratch of its own
            scratch = new Scratch();
        }
        scratch.busy = true;
        try {
            return appendSha256(value, out, scratch);
        } finally {
            scratch.busy = false;
        }
    }

    private static StringBuilder appendSha256(Object value, StringBuilder out, Scratch scratch) {
        Utf8 json = scratch.json;
        json.length = 0;
        write(value, json, 0);
        scratch.hash(json.bytes, json.length, scratch.hash);
        if (json.bytes.length > Scratch.MOST_KEPT) {
            // a huge value is not kept for the thread's next hash
            scratch.json = new Utf8(Scratch.FIRST);
        }
        return hex(scratch.hash, scratch.digits, out);
    }

    /** Appends the hex SHA-256 of {@code bytes} to {@code out}, with this thread's digest (no provider lookup per hash). */
    public static StringBuilder appendSha256Hex(byte[] bytes, StringBuilder out) {
        byte[] hash = new byte[Sha256.LENGTH];
        SCRATCH.get().hash(bytes, bytes.length, hash);
        return hex(hash, new byte[2 * hash.length], out);
    }

    /**
     * Whether hashes are made with {@link Sha256}, this package's own SHA-256, rather than the JDK's (the same
     * hashes either way). The agent starts with its own: the JDK's first {@code MessageDigest} starts the security
     * providers and links the JDK's byte-array {@code VarHandle}s, ~20 ms of CPU while the app is starting (issue
     * 16), where the agent hashes only its policy and the rehearsal's few arguments. It moves to the JDK's once the app
     * serves ({@link #useJdkDigest}): with the CPU's SHA instructions, the JDK's is ~10 times as fast per call.
     */
    private static volatile boolean ownDigest;

    /** From now on until {@link #useJdkDigest}, hashes are made with this package's own SHA-256 (see {@link #ownDigest}). */
    public static void useOwnDigest() {
        ownDigest = true;
    }

    /**
     * Makes the JDK's SHA-256 ready on the calling thread (the providers started, its classes loaded and linked by
     * one hash) and then has every thread's next hash use it. Returns {@code false}, and hashes stay with this
     * package's own SHA-256, when the JDK offers none (a restricted security configuration).
     */
    public static boolean useJdkDigest() {
        try {
            MessageDigest.getInstance("SHA-256").digest(new byte[Sha256.BLOCK]);
        } catch (NoSuchAlgorithmException e) {
            return false;
        }
        ownDigest = false;
        return true;
    }

    /** Whether hashes are made with this package's own SHA-256 now. */
    public static boolean hashesWithOwnDigest() {
        return ownDigest;
    }

    /**
     * The digits written into {@code digits} first and appended at once, as one Latin-1 string: 64 single-char
     * appends cost more than the hash, and appending a {@code char[]} to a Latin-1 builder checks every char
     * (issue 16: ~10% of a logged call); a Latin-1 string is one array copy into it, for ~100 bytes allocated.
     * Each byte's two digits come from one table of all 256 pairs.
     */
    private static StringBuilder hex(byte[] digest, byte[] digits, StringBuilder out) {
        byte[] pairs = HEX_PAIRS;
        for (int i = 0; i < digest.length; i++) {
            int pair = (digest[i] & 0xFF) << 1;
            digits[2 * i] = pairs[pair];
            digits[2 * i + 1] = pairs[pair + 1];
        }
        return out.append(new String(digits, 0, 2 * digest.length, StandardCharsets.ISO_8859_1));
    }

    /** The two hex digits of every byte value, at twice its index. */
    private static final byte[] HEX_PAIRS = new byte[512];

    static {
        for (int b = 0; b < 256; b++) {
            HEX_PAIRS[2 * b] = (byte) HEX[b >> 4];
            HEX_PAIRS[2 * b + 1] = (byte) HEX[b & 0xF];
        }
    }

    /**
     * Per thread: a SHA-256 digest, made at the thread's first hash with the digest in use then ({@link #ownDigest}:
     * {@code MessageDigest.getInstance} looks the provider up and builds a new digest, some 700 bytes, each time;
     * {@code digest()} resets it for the next use), and the bytes a hash is made from, kept only up to
     * {@value #MOST_KEPT} bytes.
     */
    private static final class Scratch {
        static final int FIRST = 128;
        static final int MOST_KEPT = 4096;
        /** The JDK's digest, or {@code null} until this thread hashes with it. */
        private MessageDigest jdk;
        /** This package's own, or {@code null} until this thread hashes with it. */
        private Sha256 own;
        /** The last hash and its hex digits: {@code digest()} allocates nothing per line, the digits one small string. */
        final byte[] hash = new byte[Sha256.LENGTH];
        final byte[] digits = new byte[2 * Sha256.LENGTH];
        Utf8 json = new Utf8(FIRST);
        /** Whether an {@code appendSha256} on this thread is using it. */
        boolean busy;

        /** Writes the SHA-256 of the first {@code length} of {@code bytes} into {@code hash}. */
        void hash(byte[] bytes, int length, byte[] hash) {
            if (ownDigest) {
                Sha256 digest = own;
                if (digest == null) {
                    digest = own = new Sha256();
                }
                digest.update(bytes, 0, length);
                digest.digest(hash);
                return;
            }
            MessageDigest digest = jdk;
            if (digest == null) {
                digest = jdk = jdkDigest();
            }
            digest.update(bytes, 0, length);
            try {
                digest.digest(hash, 0, Sha256.LENGTH);
            } catch (java.security.DigestException e) {
                throw new IllegalStateException("a SHA-256 digest is 32 bytes", e);
            }
        }

        private static MessageDigest jdkDigest() {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java platform has SHA-256", e);
            }
        }
    }

    /** A subclass rather than {@code withInitial}: no lambda is spun for it on a cold JVM. */
    private static final ThreadLocal<Scratch> SCRATCH = new ThreadLocal<Scratch>() {
        @Override
        protected Scratch initialValue() {
            return new Scratch();
        }
    };

    /**
     * Canonical JSON as UTF-8, into an array that grows: what the writer below writes into. Values nested up to
     * {@value #RECURSION} levels (all real arguments) are written recursively, with no bookkeeping objects; any
     * deeper part is written iteratively, so a value nested any number of levels deep takes memory in proportion to
     * it, never a deep Java stack. Values must be trees, as a JSON parser builds them; a structure that contains
     * itself has no JSON form. Written as bytes, not chars (issue 16): the hash reads them as they are, with no
     * builder's checks per char and no copy into bytes after.
     */
    private static final class Utf8 {
        byte[] bytes;
        int length;

        Utf8(int capacity) {
            bytes = new byte[capacity];
        }

        /** Room for {@code more} bytes after {@link #length}. */
        byte[] room(int more) {
            if (bytes.length - length < more) {
                bytes = Arrays.copyOf(bytes, Math.max(length + more, 2 * bytes.length));
            }
            return bytes;
        }

        void put(char ascii) {
            room(1)[length++] = (byte) ascii;
        }

        void put(String ascii) {
            int n = ascii.length();
            byte[] into = room(n);
            for (int i = 0; i < n; i++) {
                into[length + i] = (byte) ascii.charAt(i);
            }
            length += n;
        }

        String string() {
            return new String(bytes, 0, length, StandardCharsets.UTF_8);
        }
    }

    /** The depth up to which {@link #write} recurses: {@value} frames of a few dozen bytes, far from any stack's end. */
    private static final int RECURSION = 32;

    private static void write(Object value, Utf8 out, int depth) {
        if (!isContainer(value)) {
            scalar(value, out);
        } else if (depth >= RECURSION) {
            writeIteratively(value, out);
        } else if (value instanceof Map) {
            writeObject((Map<?, ?>) value, out, depth + 1);
        } else {
            List<?> list = value instanceof List ? (List<?>) value : Arrays.asList((Object[]) value);
            out.put('[');
            boolean started = false;
            for (Object item : list) {
                if (started) {
                    out.put(',');
                }
                started = true;
                write(item, out, depth + 1);
            }
            out.put(']');
        }
    }

    /**
     * An object's members sorted by key. Up to {@value #FEW_KEYS} string keys (a JSON parser's maps, nearly all
     * arguments) are sorted in place in two small arrays, the keys and values copied out as they are met (a map's
     * entry objects may be reused by its iterator); more keys, or keys that are not strings, go through a sorted
     * copy.
     */
    private static void writeObject(Map<?, ?> map, Utf8 out, int depth) {
        int size = map.size();
        out.put('{');
        boolean written = size == 0
                || size == 1 && writeOnlyMember(map, out, depth)
                || size > 1 && size <= FEW_KEYS && writeSorted(map, size, out, depth);
        if (!written) {
            // many keys, keys that are not strings (they may write alike: "1" and 1, the last of them kept), or a map
            // whose iteration disagrees with its size
            writeMembers(sortedCopy(map), out, depth);
        }
        out.put('}');
    }

    /** Writes the members of a map of string keys sorted; {@code false}, nothing written, for any other map. */
    private static boolean writeSorted(Map<?, ?> map, int size, Utf8 out, int depth) {
        String[] keys = new String[size];
        Object[] values = new Object[size];
        int count = 0;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (count == size || !(entry.getKey() instanceof String)) {
                return false;
            }
            keys[count] = (String) entry.getKey();
            values[count++] = entry.getValue();
        }
        if (count != size) {
            return false;
        }
        sortByKey(keys, values);
        for (int i = 0; i < size; i++) {
            if (i > 0) {
                out.put(',');
            }
            quote(keys[i], out);
            out.put(':');
            write(values[i], out, depth);
        }
        return true;
    }

    /** The most keys {@link #writeObject} sorts itself; an object of more is sorted by a {@code TreeMap} copy. */
    private static final int FEW_KEYS = 16;

    /** Writes the member of a map of one, unless its iteration does not give exactly one; {@code false} then, nothing written. */
    private static boolean writeOnlyMember(Map<?, ?> map, Utf8 out, int depth) {
        Iterator<? extends Map.Entry<?, ?>> members = map.entrySet().iterator();
        if (!members.hasNext()) {
            return false;
        }
        Map.Entry<?, ?> only = members.next();
        Object key = only.getKey();
        Object value = only.getValue();
        if (members.hasNext()) {
            return false;
        }
        quote(String.valueOf(key), out);
        out.put(':');
        write(value, out, depth);
        return true;
    }

    private static void writeMembers(Map<String, Object> sorted, Utf8 out, int depth) {
        boolean started = false;
        for (Map.Entry<String, Object> entry : sorted.entrySet()) {
            if (started) {
                out.put(',');
            }
            started = true;
            quote(entry.getKey(), out);
            out.put(':');
            write(entry.getValue(), out, depth);
        }
    }

    private static TreeMap<String, Object> sortedCopy(Map<?, ?> map) {
        TreeMap<String, Object> sorted = new TreeMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            sorted.put(String.valueOf(entry.getKey()), entry.getValue());
        }
        return sorted;
    }

    /** Insertion sort of the keys (as {@code TreeMap} orders strings), the values moved alongside. */
    private static void sortByKey(String[] keys, Object[] values) {
        for (int i = 1; i < keys.length; i++) {
            String key = keys[i];
            Object value = values[i];
            int j = i - 1;
            while (j >= 0 && keys[j].compareTo(key) > 0) {
                keys[j + 1] = keys[j];
                values[j + 1] = values[j];
                j--;
            }
            keys[j + 1] = key;
            values[j + 1] = value;
        }
    }

    /** {@link #write} for a part nested deeper than {@value #RECURSION} levels: no recursion at all. */
    private static void writeIteratively(Object value, Utf8 out) {
        // room for 4 levels before it grows: arguments are rarely deeper, and the default (16) costs 88 bytes a call
        ArrayDeque<Open> open = new ArrayDeque<>(4);
        Object next = value;
        while (true) {
            if (isContainer(next)) {
                open.push(open(next, out));
            } else {
                scalar(next, out);
            }
            Open current;
            while ((current = open.peek()) != null && !current.items.hasNext()) {
                out.put(current.object ? '}' : ']');
                open.pop();
            }
            if (current == null) {
                return;
            }
            if (current.started) {
                out.put(',');
            }
            current.started = true;
            Object item = current.items.next();
            if (current.object) {
                Map.Entry<?, ?> entry = (Map.Entry<?, ?>) item;
                quote((String) entry.getKey(), out);
                out.put(':');
                next = entry.getValue();
            } else {
                next = item;
            }
        }
    }

    /** An object or array being written: what is left of its members, sorted for an object. */
    private static final class Open {
        final boolean object;
        final Iterator<?> items;
        boolean started;

        Open(boolean object, Iterator<?> items) {
            this.object = object;
            this.items = items;
        }
    }

    private static boolean isContainer(Object value) {
        return value instanceof Map || value instanceof List || value instanceof Object[];
    }

    private static Open open(Object container, Utf8 out) {
        if (container instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) container;
            if (map.isEmpty() || map.size() == 1 && map.keySet().iterator().next() instanceof String) {
                // nothing to sort: the map's own entries, without a sorted copy
                out.put('{');
                return new Open(true, map.entrySet().iterator());
            }
            out.put('{');
            return new Open(true, sortedCopy(map).entrySet().iterator());
        }
        out.put('[');
        List<?> list = container instanceof List ? (List<?>) container : Arrays.asList((Object[]) container);
        return new Open(false, list.iterator());
    }

    private static void scalar(Object value, Utf8 out) {
        if (value == null) {
            out.put("null");
        } else if (value instanceof String) {
            quote((String) value, out);
        } else if (value instanceof Boolean) {
            out.put((Boolean) value ? "true" : "false");
        } else if (value instanceof Number) {
            number((Number) value, out);
        } else {
            quote(value.toString(), out);
        }
    }

    /** Appends {@code text} as a JSON string literal. */
    public static void quote(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String escape = shortEscape(c);
            if (escape != null) {
                out.append(escape);
            } else if (needsUnicodeEscape(text, i, c)) {
                out.append(unicodeEscape(c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }

    /** {@link #quote(String, StringBuilder)} as UTF-8: printable ASCII, nearly all of any argument, one byte each at once. */
    private static void quote(String text, Utf8 out) {
        int n = text.length();
        byte[] into = out.room(n + 2);
        int at = out.length;
        into[at++] = '"';
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                into[at++] = (byte) c;
            } else {
                out.length = at;
                i = special(text, i, c, out);
                // the chars left, a byte each at least, and the closing quote
                into = out.room(n - i);
                at = out.length;
            }
        }
        into[at++] = '"';
        out.length = at;
    }

    /**
     * Writes the char at {@code i}, one that is not printable ASCII: its escape or its UTF-8 bytes. Returns the
     * index of the last char it took: a surrogate pair is taken whole, as one code point of four bytes.
     */
    private static int special(String text, int i, char c, Utf8 out) {
        String escape = shortEscape(c);
        if (escape != null) {
            out.put(escape);
            return i;
        }
        if (needsUnicodeEscape(text, i, c)) {
            out.put(unicodeEscape(c));
            return i;
        }
        byte[] into;
        if (c < 0x800) {
            into = out.room(2);
            into[out.length++] = (byte) (0xC0 | c >> 6);
            into[out.length++] = (byte) (0x80 | c & 0x3F);
            return i;
        }
        if (!Character.isSurrogate(c)) {
            into = out.room(3);
            into[out.length++] = (byte) (0xE0 | c >> 12);
            into[out.length++] = (byte) (0x80 | c >> 6 & 0x3F);
            into[out.length++] = (byte) (0x80 | c & 0x3F);
            return i;
        }
        // the high half of a pair: a lone surrogate, and so a low one met first, was escaped above
        int point = Character.toCodePoint(c, text.charAt(i + 1));
        into = out.room(4);
        into[out.length++] = (byte) (0xF0 | point >> 18);
        into[out.length++] = (byte) (0x80 | point >> 12 & 0x3F);
        into[out.length++] = (byte) (0x80 | point >> 6 & 0x3F);
        into[out.length++] = (byte) (0x80 | point & 0x3F);
        return i + 1;
    }

    /** The two-char escape JSON has for {@code c}, or {@code null}. */
    private static String shortEscape(char c) {
        switch (c) {
            case '"': return "\\\"";
            case '\\': return "\\\\";
            case '\n': return "\\n";
            case '\r': return "\\r";
            case '\t': return "\\t";
            case '\b': return "\\b";
            case '\f': return "\\f";
            default: return null;
        }
    }

    /** Whether the char at {@code i} is written as a backslash, {@code u} and four hex digits: a control char, or a lone surrogate. */
    private static boolean needsUnicodeEscape(String text, int i, char c) {
        return c < 0x20 || Character.isSurrogate(c) && !isPaired(text, i);
    }

    private static String unicodeEscape(char c) {
        return new String(new char[] {'\\', 'u', HEX[c >> 12], HEX[(c >> 8) & 0xF], HEX[(c >> 4) & 0xF], HEX[c & 0xF]});
    }

    /**
     * Whether the surrogate at {@code i} is half of a pair. A lone one has no UTF-8 form: left raw, it
     * would hash as '?' and collide with a real '?', so it is escaped instead.
     */
    private static boolean isPaired(String text, int i) {
        char c = text.charAt(i);
        return Character.isHighSurrogate(c)
                ? i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))
                : i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }

    /**
     * Numbers equal by value ({@link JsonValues#jsonEquals}) write the same text whatever their Java type:
     * whole numbers below 1e21 in plain digits, others in the shortest exact form. JSON has no NaN or
     * infinities; they are written as the strings {@code "NaN"}, {@code "Infinity"} and
     * {@code "-Infinity"} (as Jackson writes them by default), so the text stays JSON and never hashes
     * like {@code null}.
     */
    private static void number(Number number, Utf8 out) {
        if (number instanceof Integer || number instanceof Long || number instanceof Short || number instanceof Byte) {
            // the plain digits numberText gives them, without a BigDecimal
            out.put(Long.toString(number.longValue()));
            return;
        }
        String text = numberText(number);
        if (JsonValues.toBigDecimal(number) == null) {
            quote(text, out);
        } else {
            out.put(text);
        }
    }

    /**
     * A number's text as {@link #write} gives it, bare: {@code 5000} for {@code 5000.0}, {@code 0.1},
     * {@code 1E+21}; {@code NaN}, {@code Infinity} and {@code -Infinity} unquoted.
     */
    public static String numberText(Number number) {
        BigDecimal decimal = JsonValues.toBigDecimal(number);
        if (decimal == null) {
            double d = number.doubleValue();
            return Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
        }
        decimal = decimal.stripTrailingZeros();
        // The magnitude test bounds toBigInteger(): 1E+400000000 would otherwise expand to its digits.
        return decimal.scale() <= 0 && decimal.precision() - decimal.scale() <= 21
                ? decimal.toBigInteger().toString() : decimal.toString();
    }

}
