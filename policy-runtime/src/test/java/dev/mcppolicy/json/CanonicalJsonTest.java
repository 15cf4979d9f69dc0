package dev.mcppolicy.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.Hostile;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CanonicalJsonTest {

    @Test
    void sortsKeysAndWritesNoWhitespace() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("d", true);
        inner.put("c", null);
        Map<String, Object> outer = new LinkedHashMap<>();
        outer.put("b", inner);
        outer.put("a", List.of(1, 2.5, "x"));

        assertThat(CanonicalJson.write(outer)).isEqualTo("{\"a\":[1,2.5,\"x\"],\"b\":{\"c\":null,\"d\":true}}");
    }

    @Test
    void sortsKeysByUtf16CodeUnits() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("b", 1);
        map.put("B", 2);
        map.put("\u00e9", 3);
        map.put("a1", 4);
        map.put("a", 5);

        assertThat(CanonicalJson.write(map)).isEqualTo("{\"B\":2,\"a\":5,\"a1\":4,\"b\":1,\"\u00e9\":3}");
    }

    @Test
    void writesScalarsEmptyContainersAndArrays() {
        assertThat(CanonicalJson.write(null)).isEqualTo("null");
        assertThat(CanonicalJson.write(true)).isEqualTo("true");
        assertThat(CanonicalJson.write("x")).isEqualTo("\"x\"");
        assertThat(CanonicalJson.write(Map.of())).isEqualTo("{}");
        assertThat(CanonicalJson.write(List.of())).isEqualTo("[]");
        assertThat(CanonicalJson.write(new Object[] {1, "a"})).isEqualTo("[1,\"a\"]");
        assertThat(CanonicalJson.write(Arrays.asList(null, false))).isEqualTo("[null,false]");
        assertThat(CanonicalJson.write(Map.of(1, "one"))).isEqualTo("{\"1\":\"one\"}");
    }

    @ParameterizedTest
    @MethodSource("equalNumbers")
    void writesEqualNumbersTheSameWhateverTheirJavaType(String expected, List<Number> numbers) {
        for (Number number : numbers) {
            assertThat(CanonicalJson.write(number)).as("%s (%s)", number, number.getClass().getSimpleName())
                    .isEqualTo(expected);
        }
    }

    static Stream<Arguments> equalNumbers() {
        return Stream.of(
                Arguments.of("1", List.of(1, 1L, 1.0, 1.0f, new BigDecimal("1.00"), BigInteger.ONE, (short) 1)),
                Arguments.of("0", List.of(0, 0.0, -0.0, new BigDecimal("0.000"), BigInteger.ZERO)),
                Arguments.of("-7", List.of(-7, -7L, -7.0, new BigDecimal("-7.0"))),
                Arguments.of("0.1", List.of(0.1, new BigDecimal("0.1"), new BigDecimal("0.100"))),
                Arguments.of("2.5", List.of(2.5, 2.5f, new BigDecimal("2.50"))),
                Arguments.of("100", List.of(100, 100.0, new BigDecimal("1E+2"), BigInteger.valueOf(100))),
                Arguments.of("1000000000000000", List.of(1_000_000_000_000_000L, 1e15, new BigDecimal("1E+15"))),
                Arguments.of("1152921504606846976", List.of(1L << 60, (double) (1L << 60), BigInteger.ONE.shiftLeft(60))),
                Arguments.of("9223372036854775807", List.of(Long.MAX_VALUE, new BigInteger("9223372036854775807"))),
                Arguments.of("100000000000000000000", List.of(1e20, new BigDecimal("1E+20"), BigInteger.TEN.pow(20))),
                Arguments.of("1E+21", List.of(1e21, new BigDecimal("1000000000000000000000"), BigInteger.TEN.pow(21))),
                Arguments.of("1E+300", List.of(1e300, new BigDecimal("1E+300"), BigInteger.TEN.pow(300))),
                Arguments.of("1.5E-7", List.of(1.5e-7, new BigDecimal("0.00000015"))),
                Arguments.of("123.456", List.of(123.456, new BigDecimal("123.4560"))));
    }

    @Test
    void writesNonFiniteNumbersAsStringsNeverAsNull() {
        assertThat(CanonicalJson.write(List.of(Double.NaN, Double.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY)))
                .isEqualTo("[\"NaN\",\"Infinity\",\"-Infinity\"]");
        assertThat(CanonicalJson.write(Float.NaN)).isEqualTo("\"NaN\"");
        assertThat(CanonicalJson.sha256(Map.of("n", Double.NaN))).isNotEqualTo(CanonicalJson.sha256(Map.of("n", "null")))
                .isNotEqualTo(CanonicalJson.sha256(java.util.Collections.singletonMap("n", null)));
    }

    @Test
    void escapesWhatJsonRequiresAndNothingElse() {
        assertThat(CanonicalJson.write("quote\" backslash\\ slash/")).isEqualTo("\"quote\\\" backslash\\\\ slash/\"");
        assertThat(CanonicalJson.write("\n\r\t\b\f")).isEqualTo("\"\\n\\r\\t\\b\\f\"");
        assertThat(CanonicalJson.write("\u0000\u0001\u001f")).isEqualTo("\"\\u0000\\u0001\\u001f\"");
        assertThat(CanonicalJson.write("\u007f caf\u00e9 \uD83D\uDE00 \u2028")).isEqualTo("\"\u007f caf\u00e9 \uD83D\uDE00 \u2028\"");
        assertThat(CanonicalJson.write(Map.of("k\"ey", 1))).isEqualTo("{\"k\\\"ey\":1}");
    }

    @Test
    void escapesLoneSurrogatesSoTheyCannotHashLikeAQuestionMark() {
        assertThat(CanonicalJson.write("a\uD800b")).isEqualTo("\"a\\ud800b\"");
        assertThat(CanonicalJson.write("\uDC00\uD83D\uDE00\uD83D")).isEqualTo("\"\\udc00\uD83D\uDE00\\ud83d\"");
        assertThat(CanonicalJson.sha256(Map.of("cmd", "rm \uD800"))).isNotEqualTo(CanonicalJson.sha256(Map.of("cmd", "rm ?")));
    }

    @Test
    void quotesIntoAnExistingBuilder() {
        StringBuilder out = new StringBuilder("reason=");

        CanonicalJson.quote("say \"no\"", out);

        assertThat(out).hasToString("reason=\"say \\\"no\\\"\"");
    }

    @Test
    void hashesTheCanonicalTextWithSha256() {
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("b", Map.of("d", true, "c", new LinkedHashMap<>(Map.of())));
        arguments.put("a", List.of(1, 2.5, "x"));
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("d", true);
        inner.put("c", null);
        Map<String, Object> sameValues = new LinkedHashMap<>();
        sameValues.put("a", List.of(1L, new BigDecimal("2.50"), "x"));
        sameValues.put("b", inner);
        Map<String, Object> reordered = new LinkedHashMap<>();
        reordered.put("b", inner);
        reordered.put("a", List.of(1.0, 2.5, "x"));

        assertThat(CanonicalJson.sha256(sameValues))
                .isEqualTo("3f2209c9470486da010ac643a0abb7892811de0d5da1cca29f5c5a88356dce1d")
                .isEqualTo(CanonicalJson.sha256(reordered))
                .isEqualTo(CanonicalJson.sha256Hex("{\"a\":[1,2.5,\"x\"],\"b\":{\"c\":null,\"d\":true}}"
                        .getBytes(StandardCharsets.UTF_8)));
        assertThat(CanonicalJson.sha256(arguments)).isNotEqualTo(CanonicalJson.sha256(sameValues));
    }

    @Test
    void hashesBytesToLowercaseHex() {
        assertThat(CanonicalJson.sha256Hex("abc".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(CanonicalJson.sha256Hex(new byte[0]))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    // --- hostile input (issue 8): any depth, size and number, in time and memory proportional to it ---

    @Test
    void writesArgumentsNestedTenThousandLevelsDeepWithoutRecursion() {
        String expected = Hostile.deepJson(Hostile.DEPTH);

        assertThat(Hostile.onSmallStack(() -> CanonicalJson.write(Hostile.deep(Hostile.DEPTH)))).isEqualTo(expected);
        assertThat(Hostile.onSmallStack(() -> CanonicalJson.sha256(Hostile.deep(Hostile.DEPTH))))
                .isEqualTo(CanonicalJson.sha256Hex(expected.getBytes(StandardCharsets.UTF_8)));
        assertThat(Hostile.onSmallStack(() -> CanonicalJson.write(Hostile.deep(200_000))))
                .isEqualTo(Hostile.deepJson(200_000));
    }

    @Test
    void writesObjectsAlikeAboveAndBelowTheDepthItRecursesTo() {
        // 40 levels of {"z": <deeper>, "b": [i], "a": i}: the first levels are written recursively, the rest iteratively
        Object value = "end";
        StringBuilder expected = new StringBuilder("\"end\"");
        for (int i = 39; i >= 0; i--) {
            Map<String, Object> level = new LinkedHashMap<>();
            level.put("z", value);
            level.put("b", List.of(i));
            level.put("a", i);
            value = level;
            expected.insert(0, "{\"a\":" + i + ",\"b\":[" + i + "],\"z\":").append('}');
        }

        assertThat(CanonicalJson.write(value)).isEqualTo(expected.toString());
    }

    @Test
    void sortsManyKeysAndKeysThatAreNotStringsAsText() {
        Map<String, Object> many = new LinkedHashMap<>();
        for (int i = 19; i >= 0; i--) {
            many.put(String.format("k%02d", i), i);
        }
        Map<Object, Object> mixed = new LinkedHashMap<>();
        mixed.put("b", 1);
        mixed.put(1, "number");
        mixed.put("1", "text");

        assertThat(CanonicalJson.write(many)).startsWith("{\"k00\":0,\"k01\":1,").endsWith(",\"k19\":19}");
        // the keys "1" and 1 write alike: one member, the later one, as a JSON parser would keep
        assertThat(CanonicalJson.write(mixed)).isEqualTo("{\"1\":\"text\",\"b\":1}");
    }

    @Test
    void writesAMapWhoseIteratorReusesOneEntryObject() {
        // some collections libraries hand out the same mutable entry at every step of an iteration
        Map<String, Object> reusing = new java.util.AbstractMap<>() {
            @Override
            public java.util.Set<Map.Entry<String, Object>> entrySet() {
                return new java.util.AbstractSet<>() {
                    @Override
                    public int size() {
                        return 3;
                    }

                    @Override
                    public Iterator<Map.Entry<String, Object>> iterator() {
                        return new ReusingIterator("c", "a", "b");
                    }
                };
            }
        };

        assertThat(CanonicalJson.write(reusing)).isEqualTo("{\"a\":\"A\",\"b\":\"B\",\"c\":\"C\"}");
    }

    /** Iterates {@code key -> KEY} entries through one entry object, rewritten at each step. */
    private static final class ReusingIterator implements Iterator<Map.Entry<String, Object>>, Map.Entry<String, Object> {
        private final String[] keys;
        private int next;
        private String key;

        ReusingIterator(String... keys) {
            this.keys = keys;
        }

        @Override
        public boolean hasNext() {
            return next < keys.length;
        }

        @Override
        public Map.Entry<String, Object> next() {
            key = keys[next++];
            return this;
        }

        @Override
        public String getKey() {
            return key;
        }

        @Override
        public Object getValue() {
            return key.toUpperCase(java.util.Locale.ROOT);
        }

        @Override
        public Object setValue(Object value) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void writesATenMegabyteStringInFull() {
        String value = Hostile.longString();

        String written = Hostile.onSmallStack(() -> CanonicalJson.write(Map.of("s", value)));

        assertThat(written).hasSize(value.length() + 8).startsWith("{\"s\":\"aaa").endsWith("aaa\"}");
        assertThat(CanonicalJson.sha256(Map.of("s", value))).isNotEqualTo(CanonicalJson.sha256(Map.of("s", value + "a")));
    }

    @Test
    void writesAMapOfOneHundredThousandKeysSorted() {
        String written = Hostile.onSmallStack(() -> CanonicalJson.write(Hostile.wide()));

        assertThat(written).startsWith("{\"k000000\":0,\"k000001\":1,").endsWith(",\"k099999\":99999}");
        assertThat(written.chars().filter(c -> c == ':').count()).isEqualTo(Hostile.WIDE);
    }

    @Test
    void writesDecimalsWithHugeExponentsWithoutExpandingThem() {
        assertThat(Hostile.onSmallStack(() -> List.of(
                CanonicalJson.write(Hostile.HUGE_EXPONENT), CanonicalJson.write(Hostile.NEGATIVE_HUGE_EXPONENT),
                CanonicalJson.write(Hostile.TINY), CanonicalJson.write(Hostile.BIG),
                CanonicalJson.write(new BigDecimal("10.000e399999999")),
                CanonicalJson.write(new BigDecimal(BigInteger.TEN.pow(400), -399_999_600)))))
                .containsExactly("1E+400000000", "-1E+400000000", "1E-400000000", "1E+400", "1E+400000000", "1E+400000000");
    }

    @Test
    void hashesNonFiniteNumbersApartFromNullAndFromFiniteOnes() {
        String nullHash = CanonicalJson.sha256(java.util.Collections.singletonMap("n", null));
        String infinity = CanonicalJson.sha256(Map.of("n", Hostile.INFINITY));
        String nan = CanonicalJson.sha256(Map.of("n", Double.NaN));
        String big = CanonicalJson.sha256(Map.of("n", Hostile.BIG));

        assertThat(List.of(nullHash, infinity, nan, big, CanonicalJson.sha256(Map.of("n", Double.NEGATIVE_INFINITY)))).doesNotHaveDuplicates();
        assertThat(infinity).isEqualTo(CanonicalJson.sha256(Map.of("n", Float.POSITIVE_INFINITY)));
        assertThat(nan).as("documented: the string form NaN takes").isEqualTo(CanonicalJson.sha256(Map.of("n", "NaN")));
        assertThat(CanonicalJson.write(-0.0)).isEqualTo(CanonicalJson.write(0)).isEqualTo("0");
    }

    @Test
    void escapesLoneSurrogatesOfEitherKindAndKeepsPairsBeyondTheBmp() {
        assertThat(CanonicalJson.write(List.of(Hostile.LONE_HIGH, Hostile.LONE_LOW, Hostile.NON_BMP)))
                .isEqualTo("[\"a\\ud800\",\"\\udc00a\",\"" + Hostile.NON_BMP + "\"]");
        assertThat(CanonicalJson.write(Map.of(Hostile.LONE_HIGH, 1))).isEqualTo("{\"a\\ud800\":1}");
    }

    @Test
    void writesObjectArraysHoldingNulls() {
        assertThat(CanonicalJson.write(new Object[] {null, 1, new Object[] {null}})).isEqualTo("[null,1,[null]]");
    }

    /** Pinned from the implementation before issue 8: ordinary arguments must keep their hashes. */
    @Test
    void keepsTheHashesOfOrdinaryArgumentsAsTheyWere() {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("dry_run", true);
        meta.put("note", null);
        Map<String, Object> transfer = new LinkedHashMap<>();
        transfer.put("to", "alice");
        transfer.put("amount", 12.5);
        transfer.put("tags", List.of("a", "b"));
        transfer.put("meta", meta);
        Map<String, Object> numbers = new LinkedHashMap<>();
        numbers.put("n", -7);
        numbers.put("big", 1e21);
        numbers.put("small", 1.5e-7);
        numbers.put("long", Long.MAX_VALUE);
        numbers.put("decimal", new BigDecimal("123.4560"));
        numbers.put("integer", BigInteger.TEN.pow(30));

        assertThat(List.of(
                CanonicalJson.sha256(Map.of("command", "ls -la")),
                CanonicalJson.sha256(Map.of("path", "/tmp/a.txt", "encoding", "utf-8", "limit", 100)),
                CanonicalJson.sha256(transfer),
                CanonicalJson.sha256(numbers),
                CanonicalJson.sha256(Map.of("text", "caf\u00e9 \uD83D\uDE00 \u2028 tab\t quote\" back\\ nul\u0000 del\u007f \u202e")),
                CanonicalJson.sha256(Map.of("a", List.of(Map.of("b", List.of(1, 2, Map.of("c", "d")))))),
                CanonicalJson.sha256(Map.of()),
                CanonicalJson.sha256(Map.of("x", "a\uD800", "y", "\uDC00b")))).containsExactly(
                "1df8bccaec747dc615b50678f35bf5b51756a45f9b2b77b247c7a617fde58b3e",
                "5a271796d5d63a8f223a6c1d994576ba281d683e379d204790ff785ad21b8bd2",
                "f406dac6d06c72646cd885dbfbabbb8d082121c55c341298a4105264ea426044",
                "c459ad0a0667e1fd1a33f2ea188f6395412015968a7f6235d49c01090c75e342",
                "1d85e1e2e65dde10678c469291933e17eb1f1564ec6b36a7b099e25b1a089894",
                "587b5d08f4e8b7901ad0d665dca36440714c9e6d67f319bae8f22a131051d0c6",
                "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
                "bb42e869901cec6aa68b8b573db5bf72180dd374196d6db9919f1a7455586957");
    }

    /**
     * Seeded: over a small domain where equal values of different Java types and key orders are common,
     * two finite values write the same text exactly when {@link JsonValues#jsonEquals} holds.
     */
    @Test
    void writesTheSameTextExactlyForValuesEqualByJsonSemantics() {
        Random random = new Random(8);
        int equalPairs = 0;
        for (int i = 0; i < 20_000; i++) {
            Object a = randomValue(random, 0);
            Object b = random.nextInt(3) == 0 ? twin(a, random) : randomValue(random, 0);
            boolean equal = JsonValues.jsonEquals(a, b);
            equalPairs += equal ? 1 : 0;
            assertThat(CanonicalJson.write(a).equals(CanonicalJson.write(b)))
                    .as("case %d: %s vs %s", i, CanonicalJson.write(a), CanonicalJson.write(b)).isEqualTo(equal);
            assertThat(JsonValues.jsonEquals(b, a)).as("symmetric, case %d", i).isEqualTo(equal);
        }
        assertThat(equalPairs).isGreaterThan(5_000);
    }

    private static final List<Number> NUMBERS = List.of(0, 0L, 0.0, -0.0, new BigDecimal("0.00"), BigInteger.ZERO, 1, 1.0,
            new BigDecimal("1.0"), 2.5, new BigDecimal("2.50"), 1e21, new BigDecimal("1E+21"), BigInteger.TEN.pow(21),
            Long.MAX_VALUE, new BigInteger("9223372036854775807"), 0.1, new BigDecimal("0.1"), Hostile.BIG, Hostile.TINY,
            Hostile.HUGE_EXPONENT, new BigDecimal("1.0E+400000000"));

    private static Object randomValue(Random random, int depth) {
        switch (random.nextInt(depth >= 3 ? 4 : 6)) {
            case 0: return NUMBERS.get(random.nextInt(NUMBERS.size()));
            case 1: return List.of("a", "b", "1", "0", "\uD800", "true").get(random.nextInt(6));
            case 2: return random.nextBoolean();
            case 3: return random.nextInt(4) == 0 ? null : NUMBERS.get(random.nextInt(NUMBERS.size()));
            case 4: {
                List<Object> list = new java.util.ArrayList<>();
                int size = random.nextInt(3);
                for (int i = 0; i < size; i++) {
                    list.add(randomValue(random, depth + 1));
                }
                return list;
            }
            default: {
                Map<String, Object> map = new LinkedHashMap<>();
                int size = random.nextInt(3);
                for (int i = 0; i < size; i++) {
                    map.put(random.nextBoolean() ? "x" : "y", randomValue(random, depth + 1));
                }
                return map;
            }
        }
    }

    /** The same JSON value in other Java types and key orders. */
    private static Object twin(Object value, Random random) {
        if (value instanceof Number number) {
            List<Number> same = NUMBERS.stream().filter(n -> JsonValues.jsonEquals(n, number)).toList();
            return same.get(random.nextInt(same.size()));
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new java.util.ArrayList<>();
            list.forEach(item -> copy.add(twin(item, random)));
            return copy;
        }
        if (value instanceof Map<?, ?> map) {
            List<Map.Entry<?, ?>> entries = new java.util.ArrayList<>(map.entrySet());
            java.util.Collections.reverse(entries);
            Map<Object, Object> copy = new LinkedHashMap<>();
            entries.forEach(entry -> copy.put(entry.getKey(), twin(entry.getValue(), random)));
            return copy;
        }
        return value;
    }

    /** The streaming hash (a thread's scratch text, bytes and digest) gives the digits {@code sha256} gives, call after call. */
    @Test
    void appendSha256MatchesTheHashOfTheWrittenTextWhateverCameBefore() throws Exception {
        java.security.MessageDigest reference = java.security.MessageDigest.getInstance("SHA-256");
        Map<Object, Object> oneIntegerKey = new LinkedHashMap<>();
        oneIntegerKey.put(7, "seven");
        List<Object> values = List.of(Map.of(), Map.of("text", "hello"), Map.of("b", 1, "a", List.of(true, 2.5)),
                Map.of("name", "caf\u00e9 \ud83d\ude00"), oneIntegerKey, "x".repeat(10_000), Map.of("big", "\u00e9".repeat(5_000)),
                Map.of("text", "hello"), List.of());
        for (int round = 0; round < 2; round++) {
            for (Object value : values) {
                byte[] expected = reference.digest(CanonicalJson.write(value).getBytes(StandardCharsets.UTF_8));
                StringBuilder hex = new StringBuilder();
                for (byte b : expected) {
                    hex.append(String.format("%02x", b));
                }
                assertThat(CanonicalJson.appendSha256(value, new StringBuilder("prefix=")).toString())
                        .as("value %s, round %d", value, round).isEqualTo("prefix=" + hex);
                assertThat(CanonicalJson.sha256(value)).isEqualTo(hex.toString());
            }
        }
        assertThat(CanonicalJson.write(oneIntegerKey)).isEqualTo("{\"7\":\"seven\"}");
    }

    /** A value whose {@code toString()} hashes again on the same thread gets both hashes right. */
    @Test
    void aHashInsideAValuesToStringDoesNotDisturbTheOuterOne() throws Exception {
        String[] inner = new String[1];
        Object reentrant = new Object() {
            @Override
            public String toString() {
                inner[0] = CanonicalJson.appendSha256(Map.of("inner", "value"), new StringBuilder()).toString();
                return "outer";
            }
        };
        Map<String, Object> value = Map.of("k", reentrant);
        String outer = CanonicalJson.appendSha256(value, new StringBuilder()).toString();
        java.security.MessageDigest reference = java.security.MessageDigest.getInstance("SHA-256");
        StringBuilder expected = new StringBuilder();
        for (byte b : reference.digest("{\"k\":\"outer\"}".getBytes(StandardCharsets.UTF_8))) {
            expected.append(String.format("%02x", b));
        }
        assertThat(outer).isEqualTo(expected.toString());
        assertThat(inner[0]).isEqualTo(CanonicalJson.sha256(Map.of("inner", "value")));
    }

    /**
     * The hash writes UTF-8 bytes itself (issue 16); the text is the string quoting of {@link CanonicalJson#quote}
     * and its UTF-8 must be what the JDK's encoder makes of it, for every kind of char: ASCII, escapes and controls,
     * two- and three-byte chars, pairs beyond the BMP, lone surrogates of either kind, in any order and length.
     */
    @Test
    void writesTheUtf8OfItsTextForEveryKindOfChar() {
        char[] kinds = {'a', '~', 0x7F, '"', '\\', '\n', 0x01, 0x1F, 0xE9, 0x7FF, 0x800, 0x20AC, 0xFFFF, 0xD83D, 0xDE00, 0xDBFF, 0xDC00};
        Random random = new Random(16);
        for (int round = 0; round < 2_000; round++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(round % 100 == 0 ? 300 : 12);
            for (int i = 0; i < length; i++) {
                text.append(kinds[random.nextInt(kinds.length)]);
            }
            String value = text.toString();
            StringBuilder quoted = new StringBuilder();
            CanonicalJson.quote(value, quoted);

            assertThat(CanonicalJson.write(value)).as("round %d", round).isEqualTo(quoted.toString());
            assertThat(CanonicalJson.sha256(Map.of("k", value))).as("round %d", round)
                    .isEqualTo(CanonicalJson.sha256Hex(("{\"k\":" + quoted + "}").getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void writesWholeNumbersOfEveryWidthAsPlainDigits() {
        assertThat(CanonicalJson.write(List.of(Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, (byte) -128, (short) 0)))
                .isEqualTo("[-9223372036854775808,9223372036854775807,-2147483648,-128,0]");
    }
}
