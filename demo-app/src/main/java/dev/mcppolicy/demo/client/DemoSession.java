package dev.mcppolicy.demo.client;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The scripted session of an AI agent against the sandbox server, with no model behind it: the
 * calls an agent makes when it explores a sandbox, comes across a secret, reads the sandbox's resources
 * and tries one outside it, tries something destructive, loops, guesses a tool name and runs a background
 * task. Each call's outcome is printed as it comes.
 */
public final class DemoSession {
    static final int BURST = 12;
    static final String HIDDEN_TOOL = "sandbox_exec_list";
    static final String SECRETS_FILE = ".env";
    /** A planted AWS access key ID (AWS's documented example), built in two parts so that scanners pass the source. */
    static final String AWS_KEY = "AKIA" + "IOSFODNN7EXAMPLE";
    /** A planted database password, inside a URL as in a {@code DATABASE_URL}. */
    static final String DB_PASSWORD = "hunter2" + "-s3cret";
    /** The traversal the resources scene tries: {@code %2e%2e} is {@code ..}, so this names {@code file:///etc/passwd}. */
    static final String TRAVERSAL_URI = "file:///sandbox/%2e%2e/etc/passwd";

    private final McpSyncClient client;
    private final PrintStream out;
    private final Transcript transcript;
    private final Supplier<Operator> operator;

    /** @param operator who decides held calls through the agent's admin API; it answers {@code null} when there is none */
    public DemoSession(McpSyncClient client, PrintStream out, Supplier<Operator> operator) {
        this.client = client;
        this.out = out;
        this.transcript = new Transcript(client, out);
        this.operator = operator;
    }

    public void play() {
        List<String> listed = connectAndList();
        exploreTheSandbox();
        readAPlantedSecret();
        readResources();
        tryDestructiveCommands();
        burst();
        callHiddenTool(listed);
        runBackgroundTask();
        runDeniedBackgroundTask();
        tryToDelete();
        transcript.summary();
    }

    private List<String> connectAndList() {
        InitializeResult init = client.initialize();
        out.println("Connected to " + init.serverInfo().name() + " " + init.serverInfo().version()
                + " (protocol " + init.protocolVersion() + ") as client '" + client.getClientInfo().name() + "'");
        transcript.step("List the tools the server offers");
        List<String> names = client.listTools().tools().stream().map(Tool::name).sorted().collect(Collectors.toList());
        transcript.note(names.size() + " tools: " + String.join(", ", names));
        return names;
    }

    private void exploreTheSandbox() {
        transcript.step("Write a note and read it back (file tools)");
        transcript.call("write_file", args("path", "notes.txt",
                "content", "Sprint notes\n- ship the demo\n- keep the agent on a leash\n"));
        transcript.call("read_file", args("path", "notes.txt"));

        transcript.step("Read-only shell commands");
        transcript.call("run_command", args("command", "ls -la"));
        transcript.call("run_command", args("command", "cat notes.txt"));
        transcript.call("run_command", args("command", "echo hello from the agent"));
    }

    private void readAPlantedSecret() {
        transcript.step("A planted secret: " + SECRETS_FILE + " holds an AWS access key and a database password; read it "
                + "back with read_file and cat (the policy redacts secrets in both tools' results)");
        transcript.callBriefly("write_file " + SECRETS_FILE + " (AWS_ACCESS_KEY_ID=AKIA..., DATABASE_URL=postgres://app:...@db)",
                "write_file", args("path", SECRETS_FILE, "content", "# deploy settings\n"
                        + "AWS_ACCESS_KEY_ID=" + AWS_KEY + "\n"
                        + "AWS_REGION=eu-west-1\n"
                        + "DATABASE_URL=postgres://app:" + DB_PASSWORD + "@db.internal:5432/app\n"));
        transcript.call("read_file", args("path", SECRETS_FILE));
        transcript.call("run_command", args("command", "cat " + SECRETS_FILE));
    }

    private void readResources() {
        transcript.step("Resources: list the sandbox's files, read two, then a path traversal to " + TRAVERSAL_URI
                + " (the policy allows file:///sandbox/* only, and redacts secrets in what it returns)");
        try {
            List<String> uris = client.listResources().resources().stream().map(Resource::uri).sorted()
                    .collect(Collectors.toList());
            List<String> templates = client.listResourceTemplates().resourceTemplates().stream()
                    .map(ResourceTemplate::uriTemplate).sorted().collect(Collectors.toList());
            transcript.note("resources/list: " + uris.size() + " resources: " + String.join(", ", uris));
            transcript.note("resources/templates/list: " + templates.size() + " template: " + String.join(", ", templates));
        } catch (McpError e) {
            transcript.note("listing resources failed: " + e.getMessage());
        }
        transcript.read("file:///sandbox/notes.txt");
        transcript.read("file:///sandbox/" + SECRETS_FILE);
        transcript.read(TRAVERSAL_URI);
    }

    private void tryDestructiveCommands() {
        transcript.step("A destructive command");
        transcript.call("run_command", args("command", "rm -rf ./notes.txt"));

        transcript.step("A destructive command chained behind a read-only one");
        transcript.call("run_command", args("command", "cat notes.txt && rm -rf ./notes.txt"));

        transcript.step("A write larger than the policy allows (max_length 4096)");
        transcript.call("write_file", args("path", "big.txt", "content", "x".repeat(5000)));
    }

    private void burst() {
        transcript.step("A burst of " + BURST + " run_command calls: an agent stuck in a loop "
                + "(the policy allows 10 a minute per client, the 4 commands above included)");
        int ok = 0;
        for (int i = 1; i <= BURST; i++) {
            String command = "echo burst " + i;
            if (transcript.callBriefly("run_command \"" + command + "\"", "run_command",
                    args("command", command)).ok()) {
                ok++;
            }
        }
        transcript.note(ok + " of " + BURST + " burst calls returned a result");
    }

    private void callHiddenTool(List<String> listed) {
        transcript.step("Call a tool by name: " + HIDDEN_TOOL + " (the policy hides it; in tools/list above: "
                + (listed.contains(HIDDEN_TOOL) ? "yes" : "no") + ")");
        transcript.call(HIDDEN_TOOL, args());
    }

    private void runBackgroundTask() {
        transcript.step("A background task: start (the policy holds it until a person approves), poll, kill");
        transcript.call("write_file", args("path", "progress.log", "content", "step 1: started\n"));
        Outcome started = transcript.callDecidedBy(operator.get(), true, null, "sandbox_exec_background",
                args("command", "tail -n +1 -f progress.log", "timeoutSeconds", 120));
        Object execId = started.fields().get("execId");
        if (!(execId instanceof String)) {
            transcript.note("no execId came back, so there is nothing to poll or kill");
            return;
        }
        Outcome first = transcript.call("sandbox_exec_status",
                args("execId", execId, "offset", 0, "waitSeconds", 5));
        transcript.call("write_file", args("path", "progress.log", "content", "step 2: working\n",
                "append", true));
        Object next = first.fields().getOrDefault("nextOffset", 0);
        transcript.call("sandbox_exec_status", args("execId", execId, "offset", next, "waitSeconds", 5));
        transcript.call("sandbox_exec_kill", args("execId", execId));
        transcript.call("sandbox_exec_status", args("execId", execId));
    }

    private void runDeniedBackgroundTask() {
        transcript.step("Another background task, which the person denies");
        transcript.callDecidedBy(operator.get(), false, "no long sleeps during the demo", "sandbox_exec_background",
                args("command", "sleep 300", "timeoutSeconds", 300));
    }

    private void tryToDelete() {
        transcript.step("Delete a file (the policy denies delete_*)");
        transcript.call("delete_file", args("path", "notes.txt"));
    }

    /** Arguments in the order given, so the transcript prints them as written. */
    private static Map<String, Object> args(Object... keysAndValues) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            arguments.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return arguments;
    }
}
