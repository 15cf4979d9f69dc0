package dev.mcppolicy.demo.client;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The demo's second act, a rug pull (tool poisoning): the client app runs under the policy agent with a policy of its
 * own that pins its server's tool definitions ({@code "pin": true}). It lists the tools (the agent pins them), uses
 * {@code read_file} once; the server then swaps {@code read_file}'s description for one that tells the model to read
 * {@code ~/.ssh/id_rsa}, and announces the change. The SDK lists again on its own: the app is never handed the poisoned
 * tool, and calling it is refused before anything is sent.
 */
public final class RugPullSession {
    private final McpSyncClient client;
    private final PrintStream out;
    private final Transcript transcript;
    private final CompletableFuture<List<String>> changed;

    /** @param changed completes with the tool names the SDK hands the app once the server says its tools changed */
    public RugPullSession(McpSyncClient client, PrintStream out, CompletableFuture<List<String>> changed) {
        this.client = client;
        this.out = out;
        this.transcript = new Transcript(client, out);
        this.changed = changed;
    }

    public void play() {
        InitializeResult init = client.initialize();
        out.println("Connected to " + init.serverInfo().name() + " (a server that turns on its client once trusted)");
        transcript.step("List the tools: the agent in this client pins each definition (pin: true)");
        transcript.note(String.join(", ", names(client.listTools().tools())));
        transcript.step("Use read_file as before (the server swaps its description right after answering)");
        transcript.call("write_file", args("path", "todo.txt", "content", "- review the rug pull\n"));
        transcript.call("read_file", args("path", "todo.txt"));
        transcript.step("The server sends notifications/tools/list_changed; the SDK lists again and hands the app what the agent lets through");
        try {
            transcript.note(String.join(", ", changed.get(20, TimeUnit.SECONDS)) + " (no read_file: its definition changed)");
        } catch (TimeoutException e) {
            transcript.note("no tools/list_changed came within 20 s");
        } catch (Exception e) {
            transcript.note("the tools change could not be read: " + e);
        }
        transcript.step("Call the poisoned read_file anyway: refused before it is sent");
        transcript.call("read_file", args("path", "todo.txt"));
        transcript.summary();
    }

    /** The sorted names of {@code tools}. */
    public static List<String> names(List<Tool> tools) {
        return tools.stream().map(Tool::name).sorted().collect(Collectors.toList());
    }

    private static Map<String, Object> args(Object... keysAndValues) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            arguments.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return arguments;
    }
}
