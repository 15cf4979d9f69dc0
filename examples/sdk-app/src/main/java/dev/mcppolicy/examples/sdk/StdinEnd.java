package dev.mcppolicy.examples.sdk;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

/** Stdin that tells when it ends: a stdio MCP session ends when its client closes the server's stdin. */
final class StdinEnd extends FilterInputStream {
    private final CountDownLatch ended = new CountDownLatch(1);

    StdinEnd(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        try {
            int read = super.read(buffer, offset, length);
            if (read < 0) {
                ended.countDown();
            }
            return read;
        } catch (IOException e) {
            ended.countDown();
            throw e;
        }
    }

    void await() throws InterruptedException {
        ended.await();
    }
}
