package dev.mcppolicy.result;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link SecretDetectors#redact} against a plain reference on random texts: every keyword looked for at every
 * position, and the detector's regex run by RE2/J's own {@code find} from there (from where its window starts, when
 * a match may start before its keyword) to the end of the window, with no scan by pairs, no check before RE2/J and
 * no anchoring. They must agree on every text, count for count.
 */
class SecretDetectorsReferenceTest {
    private static final SecretDetectors SET = SecretDetectors.builtIn();

    private record Row(String id, long[][] keywords, int group, int before, int after, Pattern pattern) {}

    private static List<Row> rows() throws IOException {
        List<Row> rows = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
                SecretDetectors.class.getResourceAsStream("secrets.tsv"), StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] row = line.split("\t", 6);
                String[] specs = row[1].split(",");
                long[][] keywords = new long[specs.length][];
                for (int k = 0; k < specs.length; k++) {
                    keywords[k] = Keywords.parse(specs[k], new int[1]);
                }
                rows.add(new Row(row[0], keywords, Integer.parseInt(row[2]), Integer.parseInt(row[3]), Integer.parseInt(row[4]),
                        Pattern.compile(row[5])));
            }
        }
        return rows;
    }

    private static boolean keywordAt(long[] items, String text, int at) {
        int n = items.length / 2;
        if (at + n > text.length()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = text.charAt(at + i);
            if (c >= 128 || (items[2 * i + (c >>> 6)] & (1L << c)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** The reference: what {@code redact} should give, and the counts in {@code counts}. */
    static String reference(List<Row> rows, String text, int[] counts) {
        int n = text.length();
        boolean[] covered = new boolean[n];
        List<int[]> spans = new ArrayList<>();
        for (int d = 0; d < rows.size(); d++) {
            Row row = rows.get(d);
            int done = 0;
            for (int at = 0; at < n; at++) {
                boolean found = false;
                for (long[] keyword : row.keywords()) {
                    found |= keywordAt(keyword, text, at);
                }
                if (!found || at < done) {
                    continue;
                }
                int end = (int) Math.min(n, (long) at + row.after() + 1);
                int from = row.before() == 0 ? at : Math.max(done, at - row.before() - 1);
                Matcher matcher = row.pattern().matcher(text.substring(0, end));
                if (!matcher.find(from) || (row.before() == 0 && matcher.start() != at)) {
                    continue;
                }
                done = matcher.end();
                int start = matcher.start(row.group());
                int stop = matcher.end(row.group());
                if (start < 0 || stop <= start) {
                    continue;
                }
                boolean overlaps = false;
                for (int i = start; i < stop; i++) {
                    overlaps |= covered[i];
                }
                if (!overlaps) {
                    Arrays.fill(covered, start, stop, true);
                    spans.add(new int[] {start, stop, d});
                }
            }
        }
        if (spans.isEmpty()) {
            return text;
        }
        spans.sort((a, b) -> Integer.compare(a[0], b[0]));
        StringBuilder out = new StringBuilder();
        int from = 0;
        for (int[] span : spans) {
            out.append(text, from, span[0]).append("[REDACTED:").append(rows.get(span[2]).id()).append(']');
            from = span[1];
            counts[span[2]]++;
        }
        return out.append(text, from, n).toString();
    }

    private static final String B64 = "MIIEowIBAAKCAQEA7bq98Zx1k2Lw3JdWQxP0cFv5nYt8sRkq4uHmEoGz9aB1cD2eF3gH4iJ5kL6mN7oP8qR9";

    /** Secrets, near misses, keywords alone and what surrounds them; the random texts are made of these and noise. */
    private static final String[] PIECES = {
        "AKIA" + "IOSFODNN7EXAMPLE", "ASIA" + "ABCDEFGHIJKLMNOP", "A3TX" + "ABCDEFGHIJKLMNOP", "AKIA", "ASIA", "A3T", "xAKIA" + "IOSFODNN7EXAMPLE",
        "ghp_" + "a1B2".repeat(9), "gho_" + "Zz09".repeat(9), "ghs_" + "k7Lm".repeat(9), "ghu_", "ghp_short", "github_pat_" + "11ABCDEFG0".repeat(8) + "xy",
        "glpat-" + "x9Y_".repeat(5), "glpat-", "xoxb-1234567890-1234567890-AbCdEf", "xoxb-", "xoxp-1234567890-1234567890-1234567890-" + "aB3d".repeat(8),
        "https://hooks.slack.com/services/T00000000/B00000000/" + "X".repeat(24), "hooks.slack.com/workflows/" + "Ab1/".repeat(12), "hooks.slack.com",
        "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "rk_test_abcdefghijkl;", "sk_prod_", "AIza" + "SyA-1".repeat(7), "AIza",
        "sk-" + "aB3dE".repeat(4) + "T3BlbkFJ" + "Zy9xW".repeat(4), "sk-proj-" + "a".repeat(74) + "T3BlbkFJ" + "b".repeat(74), "T3BlbkFJ",
        "sk-ant-api03-" + "a".repeat(93) + "AA", "sk-ant-api03-", "npm_" + "ab12".repeat(9), "NPM_" + "AB12".repeat(9), "npm_config",
        "pypi-AgEIcHlwaS5vcmc" + "Ab_1-".repeat(12), "pypi-AgEIcHlwaS5vcmc", "SG." + "aB3dE".repeat(4) + "xy." + "Qw9Er".repeat(8) + "zzz", "SG.", "msg.",
        "shpat_" + "0a1b".repeat(8), "shpat_", "dop_v1_" + "0123456789abcdef".repeat(4), "dop_v1_", "hf_" + "abCDe".repeat(6) + "fGhI", "hf_",
        "dapi" + "0123456789abcdef".repeat(2), "dapi" + "0123456789abcdef".repeat(2) + "-1", "dapi0", "api", "rapid",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJhbGciOiJIUzI1NiJ9", "eyJ", "key", "they",
        "postgres://admin:s3cretPass@db:5432/app", "https://user:pw@host/x", "ftp://a:b@c", "x1+.-://u:p@h", "1x://u:p@h", "+a://u:p@h", "é9://u:p@h", "https://example.com:8443/path",
        "user@example.com", "://", "://a:b@", "a://:b@", "redis://:s3cret@cache:6379", "mysql://app:pa:ss@db/app", "REDIS://u:p@h",
        "mongodb+srv://root:pw@cluster0/db", "amqps://guest:guest@mq", "postgresql://", "xredis://:pw@h",
        "AccountKey=" + "Abc1deF23gHIjkLm".repeat(5) + "nOpQRS==", "AccountKey=",
        "-----BEGIN RSA PRIVATE KEY-----\n" + B64 + "\n" + B64 + "\n-----END RSA PRIVATE KEY-----",
        "-----BEGIN PRIVATE KEY-----\n" + B64.substring(0, 62) + "\n-----END PRIVATE KEY-----",
        "-----BEGIN PRIVATE KEY-----\n" + B64.substring(0, 61) + "\n-----END PRIVATE KEY-----",
        "-----BEGIN OPENSSH PRIVATE KEY-----\n", "-----END OPENSSH PRIVATE KEY-----", "-----BEGIN PUBLIC KEY-----\n" + B64 + "\n-----END PUBLIC KEY-----",
        "-----begin private key block-----" + B64, "-----end private key block-----", "-----", "-----BEGIN", B64,
        " ", "  ", "\n", "\t", "=", ":", "/", "@", "\"", "'", ";", "\\n", "_", "-", ".", "\uD83D\uDE00", "\u20AC", "\u00E9", "\u0141", "\uD800", "\uDC00",
    };

    private static final String NOISE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.:/@=;\"'\n";

    @Test
    void agreesWithThePlainReferenceOnRandomTexts() throws IOException {
        List<Row> rows = rows();
        assertEquals(SET.ids(), rows.stream().map(Row::id).toList());
        Random random = new Random(31);
        int redacted = 0;
        for (int round = 0; round < 3000; round++) {
            StringBuilder text = new StringBuilder();
            int parts = 1 + random.nextInt(12);
            for (int p = 0; p < parts; p++) {
                if (random.nextInt(3) == 0) {
                    for (int c = random.nextInt(8); c >= 0; c--) {
                        text.append(NOISE.charAt(random.nextInt(NOISE.length())));
                    }
                } else {
                    String piece = PIECES[random.nextInt(PIECES.length)];
                    // sometimes cut short, so a secret becomes a near miss at the text's end or before the next piece
                    text.append(random.nextInt(5) == 0 ? piece.substring(0, random.nextInt(piece.length() + 1)) : piece);
                }
            }
            String input = text.toString();
            int[] expected = new int[rows.size()];
            String want = reference(rows, input, expected);
            int[] counts = new int[SET.size()];
            String got = SET.redact(input, counts);
            assertEquals(want, got, () -> "text: " + input);
            assertArrayEquals(expected, counts, () -> "counts for: " + input);
            if (want == input) {
                assertSame(input, got, () -> "same instance for: " + input);
            } else {
                redacted++;
            }
        }
        assertEquals(true, redacted > 1000, "redacted " + redacted + " of 3000");
    }
}
