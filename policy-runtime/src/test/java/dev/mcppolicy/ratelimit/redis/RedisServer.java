package dev.mcppolicy.ratelimit.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * A real {@code redis-server} of this test's own on a free loopback port, without persistence. Missing
 * {@code redis-server} skips the test, unless {@code -Dci.require_redis=true} (set by
 * {@code .ci/run}, which installs it) makes that a failure.
 */
public final class RedisServer implements AutoCloseable {
    private static final List<String> PLACES = List.of("/usr/bin/redis-server", "/usr/local/bin/redis-server", "/usr/sbin/redis-server");

    private final String binary;
    private final int port;
    private Process process;

    private RedisServer(String binary, int port) {
        this.binary = binary;
        this.port = port;
    }

    /** Starts one, or skips the test (fails it in CI) when there is no {@code redis-server}. */
    public static RedisServer start() {
        String binary = binary();
        if (binary == null) {
            String why = "redis-server is not installed (apt-get install redis-server; .ci/run installs it)";
            if (Boolean.getBoolean("ci.require_redis")) {
                throw new IllegalStateException(why);
            }
            Assumptions.abort(why);
        }
        RedisServer server = new RedisServer(binary, freePort());
        server.startAgain();
        return server;
    }

    private static String binary() {
        for (String place : PLACES) {
            if (Files.isExecutable(Path.of(place))) {
                return place;
            }
        }
        return null;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public int port() {
        return port;
    }

    /** This server's URL, as the agent's {@code store} key takes it. */
    public String store() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts the server (again, on the same port) and waits until it answers {@code PING}. */
    public void startAgain() {
        try {
            process = new ProcessBuilder(binary, "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "",
                    "--appendonly", "no", "--protected-mode", "no")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + binary, e);
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!"+PONG".equals(command("PING"))) {
            if (System.nanoTime() > deadline || !process.isAlive()) {
                throw new IllegalStateException("redis-server on port " + port + " did not start");
            }
            Thread.onSpinWait();
        }
    }

    /** Stops the server and waits until it is gone. */
    public void stop() {
        if (process != null) {
            process.destroy();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Freezes the server process (SIGSTOP): connections stay open and nothing is answered. */
    public void pause() {
        signal("STOP");
    }

    /** Lets a paused server go on (SIGCONT). */
    public void resume() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + name + " failed");
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends one command (words without spaces) on a connection of its own and returns the first line
     * of the answer, or {@code null} when the server cannot be reached.
     */
    public String command(String... words) {
        StringBuilder request = new StringBuilder("*").append(words.length).append("\r\n");
        for (String word : words) {
            request.append('$').append(word.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(word).append("\r\n");
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) >= 0 && c != '\r') {
                line.append((char) c);
            }
            if (line.length() > 0 && line.charAt(0) == '$' && !line.toString().equals("$-1")) {
                in.read();
                line.setLength(0);
                while ((c = in.read()) >= 0 && c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            resume();
            stop();
        }
    }
}
