package dev.mcppolicy.demo;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

/** Lets the stdio server wait for its client to close stdin, which is how a stdio MCP session ends. */
final class EndSignallingInputStream extends FilterInputStream {
    private final CountDownLatch ended = new CountDownLatch(1);

    EndSignallingInputStream(InputStream in) {
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

    void awaitEnd() throws InterruptedException {
        ended.await();
    }
}
