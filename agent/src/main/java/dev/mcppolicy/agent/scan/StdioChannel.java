package dev.mcppolicy.agent.scan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcppolicy.text.DisplayText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A stdio MCP server run as a child process: JSON-RPC lines on its stdin and stdout (MCP's stdio
 * transport). Its stderr is drained all along (so a chatty server never blocks on a full pipe) and its
 * last lines go into every error. Anything on stdout that is not a JSON-RPC message is an error at once,
 * since a stdio server may write nothing else there. {@link #close()} ends the process as MCP's stdio
 * shutdown says (close its stdin, then SIGTERM, then SIGKILL), its descendants with it, also when the
 * command line JVM itself is stopped.
 */
final class StdioChannel implements McpChannel {
    static final int STDERR_LINES = 10;
    private static final int LINE_CAP = 300;
    private static final long EXIT_WAIT_MS = 1000;

    private final ObjectMapper json;
    private final Process process;
    private final OutputStream stdin;
    private final BlockingQueue<Incoming> incoming = new LinkedBlockingQueue<>();
    private final Deque<String> stderrTail = new ArrayDeque<>();
    private final Thread killOnExit;
    private volatile boolean closed;
    /** Set when the server did not answer in time: it is then killed at once, not asked to stop. */
    private volatile boolean abandoned;

    /** One thing read from stdout: a message, or the end of the stream, or a line that is not JSON-RPC. */
    private record Incoming(JsonNode message, String garbage) {
    }

    private StdioChannel(ObjectMapper json, Process process) {
        this.json = json;
        this.process = process;
        this.stdin = process.getOutputStream();
        this.killOnExit = new Thread(this::kill, "mcp-policy-scan-kill");
        Runtime.getRuntime().addShutdownHook(killOnExit);
        daemon(this::readStdout, "mcp-policy-scan-stdout");
        daemon(this::drainStderr, "mcp-policy-scan-stderr");
    }

    static StdioChannel start(ObjectMapper json, List<String> command) throws ScanException {
        try {
            return new StdioChannel(json, new ProcessBuilder(command).start());
        } catch (IOException e) {
            throw new ScanException(ScanException.SERVER, "cannot start the server " + shown(command.get(0)) + ": " + e.getMessage());
        }
    }

    @Override
    public JsonNode request(long id, String method, ObjectNode params, long deadline) throws ScanException {
        ObjectNode request = json.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        request.set("params", params);
        send(request, method);
        while (true) {
            JsonNode message = next(method, deadline);
            if (message.has("method")) {
                answerServerRequest(message, method);
            } else if (message.path("id").isIntegralNumber() && message.path("id").asLong() == id) {
                return message;
            }
        }
    }

    @Override
    public void notify(String method, long deadline) throws ScanException {
        send(json.createObjectNode().put("jsonrpc", "2.0").put("method", method), method);
    }

    /** A server may ask things of its client at any time: {@code ping} is answered, any other request refused. */
    private void answerServerRequest(JsonNode message, String waitingFor) throws ScanException {
        if (!message.has("id")) {
            return;
        }
        ObjectNode answer = json.createObjectNode().put("jsonrpc", "2.0");
        answer.set("id", message.get("id"));
        if (message.path("method").asText().equals("ping")) {
            answer.putObject("result");
        } else {
            answer.putObject("error").put("code", -32601).put("message", "mcp-policy scan only lists tools");
        }
        send(answer, waitingFor);
    }

    private void send(ObjectNode message, String method) throws ScanException {
        try {
            stdin.write((json.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            throw endedBefore("read " + method);
        }
    }

    /** The server is gone: a line it wrote on stdout that is not JSON-RPC says more than that it ended. */
    private ScanException endedBefore(String what) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXIT_WAIT_MS);
        try {
            Incoming item;
            while ((item = incoming.poll(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS)) != null) {
                if (item.garbage() != null) {
                    return garbage(item.garbage());
                }
                if (item.message() == null) {
                    incoming.add(item);
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new ScanException(ScanException.SERVER, ended("before it " + what) + stderrNote());
    }

    private ScanException garbage(String line) {
        return new ScanException(ScanException.SERVER, "the server wrote a line on stdout that is not a JSON-RPC message: "
                + shown(line) + "; a stdio MCP server must write only JSON-RPC messages there" + stderrNote());
    }

    private JsonNode next(String method, long deadline) throws ScanException {
        Incoming next;
        try {
            // past the deadline nothing more is read: a server that floods notifications times out as well
            long left = deadline - System.nanoTime();
            next = left > 0 ? incoming.poll(left, TimeUnit.NANOSECONDS) : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ScanException(ScanException.TIMEOUT, "interrupted while waiting for the answer to " + method);
        }
        if (next == null) {
            abandoned = true;
            throw new ScanException(ScanException.TIMEOUT, "the server did not answer " + method + " in time"
                    + (process.isAlive() ? " (it is running, but wrote no answer on stdout)" : "") + stderrNote());
        }
        if (next.garbage() != null) {
            throw garbage(next.garbage());
        }
        if (next.message() == null) {
            incoming.add(next);
            throw new ScanException(ScanException.SERVER, ended("before it answered " + method) + stderrNote());
        }
        return next.message();
    }

    private String ended(String when) {
        try {
            if (process.waitFor(EXIT_WAIT_MS, TimeUnit.MILLISECONDS)) {
                return "the server exited with code " + process.exitValue() + " " + when;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "the server closed its stdout " + when;
    }

    private void readStdout() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode parsed;
                try {
                    parsed = json.readTree(line);
                } catch (JsonProcessingException e) {
                    parsed = null;
                }
                if (parsed != null && parsed.isArray() && !parsed.isEmpty()) {
                    for (JsonNode message : parsed) {
                        offer(message, line);
                    }
                } else {
                    offer(parsed, line);
                }
            }
        } catch (IOException e) {
            // the stream ended: reported as the end below
        }
        incoming.add(new Incoming(null, null));
    }

    private void offer(JsonNode message, String line) {
        boolean isMessage = message != null && message.isObject() && (message.has("method") || message.has("result") || message.has("error"));
        incoming.add(isMessage ? new Incoming(message, null) : new Incoming(null, line));
    }

    private void drainStderr() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                synchronized (stderrTail) {
                    if (stderrTail.size() == STDERR_LINES) {
                        stderrTail.removeFirst();
                    }
                    stderrTail.addLast(line.length() > LINE_CAP ? line.substring(0, LINE_CAP) + "..." : line);
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** The server's last stderr lines, each on its own indented line, or nothing when it wrote none. */
    String stderrNote() {
        List<String> lines;
        synchronized (stderrTail) {
            lines = new ArrayList<>(stderrTail);
        }
        if (lines.isEmpty()) {
            return "";
        }
        StringBuilder note = new StringBuilder(System.lineSeparator()).append("  the server's last lines on stderr:");
        for (String line : lines) {
            StringBuilder shown = new StringBuilder();
            DisplayText.appendQuoted(line, '\u0000', LINE_CAP + 3, shown);
            note.append(System.lineSeparator()).append("    ").append(shown);
        }
        return note.toString();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stdin.close();
            if (!abandoned) {
                process.waitFor(EXIT_WAIT_MS, TimeUnit.MILLISECONDS);
            }
        } catch (IOException e) {
            // it stopped reading: it is ended below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        kill();
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // the JVM is shutting down and the hook runs anyway
        }
    }

    /** SIGTERM to the process and its descendants, then SIGKILL to whatever is left a second later. */
    private void kill() {
        List<ProcessHandle> all = new ArrayList<>();
        process.descendants().forEach(all::add);
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroy);
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXIT_WAIT_MS);
        for (ProcessHandle handle : all) {
            try {
                handle.onExit().get(Math.max(1, until - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                handle.destroyForcibly();
            }
        }
    }

    /** What a failed start names: the command, quoted and capped. */
    private static String shown(String text) {
        StringBuilder shown = new StringBuilder("'");
        DisplayText.appendQuoted(text, '\'', LINE_CAP, shown);
        return shown.append('\'').toString();
    }

    private static void daemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }
}
