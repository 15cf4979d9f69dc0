package dev.mcppolicy.json;

import java.util.Arrays;

/**
 * SHA-256 (FIPS 180-4) in plain Java, for the hashes the agent makes while the app starts (see
 * {@code CanonicalJson.ownDigest}): one class, no provider lookup, no {@code VarHandle}. Not thread-safe; one per
 * thread. The JDK's is faster once warm (it has an intrinsic for the CPU's SHA instructions), which is why it takes
 * over once the app serves.
 */
final class Sha256 {
    static final int LENGTH = 32;
    static final int BLOCK = 64;

    /** The round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
    private static final int[] K = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    };
    /** The initial hash: the first 32 bits of the fractional parts of the square roots of the first 8 primes. */
    private static final int[] INITIAL = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };

    private final int[] state = INITIAL.clone();
    private final int[] schedule = new int[64];
    private final byte[] block = new byte[BLOCK];
    /** How many bytes of {@link #block} are filled. */
    private int filled;
    /** How many bytes were hashed since the last reset. */
    private long length;

    void update(byte[] in, int offset, int count) {
        length += count;
        int at = offset;
        int end = offset + count;
        if (filled > 0) {
            int n = Math.min(BLOCK - filled, count);
            System.arraycopy(in, at, block, filled, n);
            filled += n;
            at += n;
            if (filled < BLOCK) {
                return;
            }
            compress(block, 0);
            filled = 0;
        }
        for (; end - at >= BLOCK; at += BLOCK) {
            compress(in, at);
        }
        System.arraycopy(in, at, block, 0, end - at);
        filled = end - at;
    }

    /** Writes the hash of all updates since the last into {@code out} (its first {@value #LENGTH} bytes) and resets. */
    void digest(byte[] out) {
        long bits = length << 3;
        block[filled++] = (byte) 0x80;
        if (filled > BLOCK - 8) {
            Arrays.fill(block, filled, BLOCK, (byte) 0);
            compress(block, 0);
            filled = 0;
        }
        Arrays.fill(block, filled, BLOCK - 8, (byte) 0);
        for (int i = 0; i < 8; i++) {
            block[BLOCK - 8 + i] = (byte) (bits >>> (56 - 8 * i));
        }
        compress(block, 0);
        for (int i = 0; i < 8; i++) {
            int word = state[i];
            out[4 * i] = (byte) (word >>> 24);
            out[4 * i + 1] = (byte) (word >>> 16);
            out[4 * i + 2] = (byte) (word >>> 8);
            out[4 * i + 3] = (byte) word;
        }
        System.arraycopy(INITIAL, 0, state, 0, INITIAL.length);
        filled = 0;
        length = 0;
    }

    private void compress(byte[] in, int offset) {
        int[] w = schedule;
        for (int i = 0; i < 16; i++) {
            int p = offset + 4 * i;
            w[i] = (in[p] << 24) | ((in[p + 1] & 0xFF) << 16) | ((in[p + 2] & 0xFF) << 8) | (in[p + 3] & 0xFF);
        }
        for (int i = 16; i < 64; i++) {
            int x = w[i - 15];
            int y = w[i - 2];
            int s0 = Integer.rotateRight(x, 7) ^ Integer.rotateRight(x, 18) ^ (x >>> 3);
            int s1 = Integer.rotateRight(y, 17) ^ Integer.rotateRight(y, 19) ^ (y >>> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        int a = state[0];
        int b = state[1];
        int c = state[2];
        int d = state[3];
        int e = state[4];
        int f = state[5];
        int g = state[6];
        int h = state[7];
        for (int i = 0; i < 64; i++) {
            int t1 = h + (Integer.rotateRight(e, 6) ^ Integer.rotateRight(e, 11) ^ Integer.rotateRight(e, 25))
                    + ((e & f) ^ (~e & g)) + K[i] + w[i];
            int t2 = (Integer.rotateRight(a, 2) ^ Integer.rotateRight(a, 13) ^ Integer.rotateRight(a, 22))
                    + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
    }
}
