package dev.mcppolicy.demo.client;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.io.IOException;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Makes tool calls and resource reads and prints each one with its outcome, exactly as it came back: the
 * demo judges nothing, so the same session reads true with or without a policy agent in the server.
 */
final class Transcript {
    private static final int INLINE_LIMIT = 72;
    private static final String INDENT = "      ";
    private static final Set<String> BRIEF_SKIPS = Set.of("command", "durationMs", "timedOut", "truncated");

    private final McpSyncClient client;
    private final PrintStream out;
    private final Map<Outcome.Kind, Integer> tally = new EnumMap<>(Outcome.Kind.class);
    /** Resource reads: OK (contents came back), RPC_ERROR or FAILED. */
    private final Map<Outcome.Kind, Integer> reads = new EnumMap<>(Outcome.Kind.class);
    private int step;

    Transcript(McpSyncClient client, PrintStream out) {
        this.client = client;
        this.out = out;
    }

    void step(String title) {
        out.println();
        out.println("[" + ++step + "] " + title);
    }

    void note(String text) {
        out.println(INDENT + text);
    }

    /** Calls a tool and prints the call and its outcome in full. */
    Outcome call(String tool, Map<String, Object> arguments) {
        out.println("    > " + tool + " " + Json.compact(arguments, INLINE_LIMIT));
        Outcome outcome = quietCall(tool, arguments);
        print(outcome);
        return outcome;
    }

    /**
     * Calls a tool that the policy may hold for a person's approval, and meanwhile plays that person: when the
     * call shows up among the admin API's pending approvals, {@code operator} approves it, or denies it with
     * {@code reason}. Without an operator (no policy agent, or no admin endpoint) the call just runs its course.
     */
    Outcome callDecidedBy(Operator operator, boolean approve, String reason, String tool, Map<String, Object> arguments) {
        out.println("    > " + tool + " " + Json.compact(arguments, INLINE_LIMIT));
        CompletableFuture<Outcome> call = CompletableFuture.supplyAsync(() -> quietCall(tool, arguments));
        if (operator != null) {
            try {
                decideWhenHeld(call, operator, approve, reason, tool);
            } catch (IOException e) {
                note("the operator could not reach the admin endpoint: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Outcome outcome = call.join();
        print(outcome);
        return outcome;
    }

    private void decideWhenHeld(CompletableFuture<Outcome> call, Operator operator, boolean approve, String reason, String tool)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!call.isDone() && System.nanoTime() < deadline) {
            for (Map<String, Object> held : operator.pending()) {
                if (tool.equals(held.get("tool"))) {
                    Object id = held.get("id");
                    note("held for approval " + id + " (GET /api/approvals: tool " + tool + ", arg_keys " + held.get("arg_keys")
                            + ", args_sha256 " + String.valueOf(held.get("args_sha256")).substring(0, 12) + "...)");
                    operator.decide(String.valueOf(id), approve, reason);
                    note(Operator.NAME + (approve ? " approves it: POST /api/approvals/" + id + "/approve"
                            : " denies it: POST /api/approvals/" + id + "/deny {\"reason\": \"" + reason + "\"}"));
                    return;
                }
            }
            Thread.sleep(50);
        }
    }

    /** Calls a tool and prints its outcome on one line after {@code label}. */
    Outcome callBriefly(String label, String tool, Map<String, Object> arguments) {
        Outcome outcome = quietCall(tool, arguments);
        out.println("    > " + label + " -> " + (outcome.ok() && !outcome.fields().isEmpty()
                ? "ok: " + brief(outcome.fields()) : headline(outcome)));
        return outcome;
    }

    /**
     * Reads a resource ({@code resources/read}) and prints what came back: each text content's lines, or the
     * JSON-RPC error as the caller got it.
     *
     * @return whether contents came back
     */
    boolean read(String uri) {
        out.println("    > resources/read " + uri);
        Outcome.Kind kind;
        try {
            ReadResourceResult result = client.readResource(ReadResourceRequest.builder(uri).build());
            kind = Outcome.Kind.OK;
            for (ResourceContents contents : result.contents()) {
                printContents(contents);
            }
        } catch (McpError e) {
            kind = Outcome.Kind.RPC_ERROR;
            out.println(INDENT + "JSON-RPC error " + describe(e));
        } catch (RuntimeException e) {
            kind = Outcome.Kind.FAILED;
            out.println(INDENT + "FAILED: " + e);
        }
        reads.merge(kind, 1, Integer::sum);
        return kind == Outcome.Kind.OK;
    }

    private void printContents(ResourceContents contents) {
        String head = INDENT + "ok: uri=" + Json.compact(contents.uri(), INLINE_LIMIT)
                + (contents.mimeType() == null ? "" : " mimeType=" + Json.compact(contents.mimeType(), INLINE_LIMIT));
        if (contents instanceof TextResourceContents) {
            out.println(head + " text:");
            for (String line : ((TextResourceContents) contents).text().split("\n", -1)) {
                if (!line.isEmpty()) {
                    out.println(INDENT + "| " + line);
                }
            }
        } else if (contents instanceof BlobResourceContents) {
            out.println(head + " blob: " + ((BlobResourceContents) contents).blob().length() + " base64 chars");
        } else {
            out.println(head);
        }
    }

    /** Calls a tool without printing anything but counting the outcome. */
    Outcome quietCall(String tool, Map<String, Object> arguments) {
        Outcome outcome;
        try {
            outcome = Outcome.of(client.callTool(CallToolRequest.builder(tool).arguments(arguments).build()));
        } catch (McpError e) {
            outcome = new Outcome(Outcome.Kind.RPC_ERROR, null, describe(e));
        } catch (RuntimeException e) {
            outcome = new Outcome(Outcome.Kind.FAILED, null, e.toString());
        }
        tally.merge(outcome.kind(), 1, Integer::sum);
        return outcome;
    }

    void summary() {
        out.println();
        out.println("Session done: " + tally.values().stream().mapToInt(Integer::intValue).sum() + " tool calls: "
                + count(Outcome.Kind.OK) + " returned a result, "
                + count(Outcome.Kind.TOOL_ERROR) + " returned isError, "
                + count(Outcome.Kind.RPC_ERROR) + " got a JSON-RPC error, "
                + count(Outcome.Kind.FAILED) + " failed.");
        if (!reads.isEmpty()) {
            out.println("And " + reads.values().stream().mapToInt(Integer::intValue).sum() + " resource reads: "
                    + reads.getOrDefault(Outcome.Kind.OK, 0) + " returned contents, "
                    + reads.getOrDefault(Outcome.Kind.RPC_ERROR, 0) + " got a JSON-RPC error, "
                    + reads.getOrDefault(Outcome.Kind.FAILED, 0) + " failed.");
        }
    }

    private int count(Outcome.Kind kind) {
        return tally.getOrDefault(kind, 0);
    }

    private void print(Outcome outcome) {
        if (outcome.kind() != Outcome.Kind.OK || outcome.fields().isEmpty()) {
            out.println(INDENT + headline(outcome));
            return;
        }
        StringBuilder inline = new StringBuilder("ok:");
        StringBuilder blocks = new StringBuilder();
        for (Map.Entry<String, Object> field : outcome.fields().entrySet()) {
            Object value = field.getValue();
            if (value instanceof String && (((String) value).contains("\n") || ((String) value).length() > 40)) {
                blocks.append(INDENT).append(field.getKey()).append(":\n");
                for (String line : ((String) value).split("\n", -1)) {
                    if (!line.isEmpty()) {
                        blocks.append(INDENT).append("| ").append(line).append('\n');
                    }
                }
            } else if (value instanceof List && !((List<?>) value).isEmpty()) {
                blocks.append(INDENT).append(field.getKey()).append(":\n");
                for (Object element : (List<?>) value) {
                    blocks.append(INDENT).append("- ").append(Json.compact(element, 200)).append('\n');
                }
            } else {
                inline.append(' ').append(field.getKey()).append('=').append(Json.compact(value, INLINE_LIMIT));
            }
        }
        out.println(INDENT + inline);
        out.print(blocks);
    }

    /** The fields that differ from call to call, without the echo of the arguments and the timings. */
    private static String brief(Map<String, Object> fields) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, Object> field : fields.entrySet()) {
            if (BRIEF_SKIPS.contains(field.getKey()) || "".equals(field.getValue())) {
                continue;
            }
            text.append(text.length() == 0 ? "" : " ").append(field.getKey()).append('=')
                    .append(Json.compact(field.getValue(), INLINE_LIMIT));
        }
        return text.toString();
    }

    private static String headline(Outcome outcome) {
        switch (outcome.kind()) {
            case OK:
                return "ok: " + Json.compact(outcome.result().structuredContent() != null
                        ? outcome.result().structuredContent() : outcome.text(), 160);
            case TOOL_ERROR:
                return "isError: " + outcome.text();
            case RPC_ERROR:
                return "JSON-RPC error " + outcome.error();
            default:
                return "FAILED: " + outcome.error();
        }
    }

    private static String describe(McpError e) {
        JSONRPCError error = e.getJsonRpcError();
        if (error == null) {
            return e.getMessage();
        }
        return error.code() + ": " + error.message() + (error.data() == null ? "" : " (data: " + error.data() + ")");
    }
}
