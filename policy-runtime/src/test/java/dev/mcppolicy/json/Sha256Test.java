package dev.mcppolicy.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Sha256Test {

    @Test
    void hashesTheStandardsTestVectors() {
        // FIPS 180-4's examples: one block, two blocks, and a million 'a's (many blocks, a length past 2^20 bits)
        assertThat(hash("abc".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        byte[] million = new byte[1_000_000];
        java.util.Arrays.fill(million, (byte) 'a');
        assertThat(hash(million)).isEqualTo("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
        assertThat(hash(new byte[0])).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void hashesAsTheJdkDoesAtEveryLengthAndSplit() throws Exception {
        // every length across the padding's edges (55, 56, 63, 64 bytes...), fed in random pieces, with one digest reused
        Random random = new Random(16);
        Sha256 own = new Sha256();
        MessageDigest jdk = MessageDigest.getInstance("SHA-256");
        byte[] out = new byte[Sha256.LENGTH];
        for (int length = 0; length <= 300; length++) {
            byte[] bytes = new byte[length];
            random.nextBytes(bytes);
            for (int at = 0; at < length; ) {
                int piece = Math.min(length - at, random.nextInt(80));
                own.update(bytes, at, piece);
                at += piece;
            }
            own.digest(out);
            assertThat(out).as("%d bytes", length).isEqualTo(jdk.digest(bytes));
        }
    }

    @Test
    void canonicalJsonHashesTheSameWithEitherDigest() {
        Object arguments = Map.of("cmd", "rm -rf /tmp/\u00e9\uD83D\uDE00", "n", List.of(1, 2.5, true), "long", "x".repeat(200));
        try {
            CanonicalJson.useOwnDigest();
            assertThat(CanonicalJson.hashesWithOwnDigest()).isTrue();
            String own = CanonicalJson.sha256(arguments);
            String ownBytes = CanonicalJson.sha256Hex("abc".getBytes(StandardCharsets.UTF_8));

            assertThat(CanonicalJson.useJdkDigest()).isTrue();
            assertThat(CanonicalJson.hashesWithOwnDigest()).isFalse();
            assertThat(CanonicalJson.sha256(arguments)).isEqualTo(own)
                    .isEqualTo(HexFormat.of().formatHex(jdk(CanonicalJson.write(arguments).getBytes(StandardCharsets.UTF_8))));
            assertThat(CanonicalJson.sha256Hex("abc".getBytes(StandardCharsets.UTF_8))).isEqualTo(ownBytes)
                    .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        } finally {
            CanonicalJson.useJdkDigest();
        }
    }

    private static String hash(byte[] bytes) {
        Sha256 digest = new Sha256();
        digest.update(bytes, 0, bytes.length);
        byte[] out = new byte[Sha256.LENGTH];
        digest.digest(out);
        return HexFormat.of().formatHex(out);
    }

    private static byte[] jdk(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
