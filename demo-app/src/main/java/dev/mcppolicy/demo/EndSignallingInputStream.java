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
        return signalled(super.read());
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        try {
            return signalled(super.read(buffer, offset, length));
        } catch (IOException e) {
            ended.countDown();
            throw e;
        }
    }

    private int signalled(int result) {
        if (result < 0) {
            ended.countDown();
        }
        return result;
    }

    void awaitEnd() throws InterruptedException {
        ended.await();
    }
}
