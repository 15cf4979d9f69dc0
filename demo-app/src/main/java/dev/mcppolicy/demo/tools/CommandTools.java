package dev.mcppolicy.demo.tools;

import dev.mcppolicy.demo.exec.BackgroundExec;
import dev.mcppolicy.demo.exec.BackgroundExecs;
import dev.mcppolicy.demo.exec.CommandResult;
import dev.mcppolicy.demo.exec.CommandRunner;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code run_command} and the {@code sandbox_exec_*} family: shell commands run in the sandbox. */
final class CommandTools {
    private static final String COMMAND_HELP = "Shell command, run with /bin/sh -c in the sandbox directory";

    private final CommandRunner commands;
    private final BackgroundExecs execs;
    private final ToolResults results;

    CommandTools(CommandRunner commands, BackgroundExecs execs, ToolResults results) {
        this.commands = commands;
        this.execs = execs;
        this.results = results;
    }

    void addTo(List<SyncToolSpecification> tools) {
        tools.add(SandboxTools.spec("run_command",
                "Run a shell command in the sandbox and wait for it: returns exitCode, stdout and stderr. "
                        + "The command is killed after timeoutSeconds.",
                Schemas.object("command")
                        .string("command", COMMAND_HELP)
                        .integer("timeoutSeconds", "Kill the command after this many seconds", 1, 300, 30)
                        .build(),
                SandboxTools.hints(false, true), this::runCommand));
        tools.add(SandboxTools.spec("sandbox_exec_background",
                "Start a shell command in the background and return its execId at once; "
                        + "follow it with sandbox_exec_status.",
                Schemas.object("command")
                        .string("command", COMMAND_HELP)
                        .integer("timeoutSeconds", "Kill the command after this many seconds", 1, 3600, 600)
                        .build(),
                SandboxTools.hints(false, true), this::startBackground));
        tools.add(SandboxTools.spec("sandbox_exec_status",
                "Status, exit code and output of a background exec. Returns the output after 'offset' "
                        + "and the nextOffset to ask for next time; waitSeconds waits for new output or the end.",
                Schemas.object("execId")
                        .string("execId", "The execId sandbox_exec_background returned")
                        .integer("offset", "Return output after this many characters", 0, Integer.MAX_VALUE, 0)
                        .integer("waitSeconds", "Wait up to this long for new output or the end", 0, 30, 0)
                        .build(),
                SandboxTools.hints(true, false), this::status));
        tools.add(SandboxTools.spec("sandbox_exec_list",
                "List every background exec of the sandbox with its status.",
                Schemas.object().build(),
                SandboxTools.hints(true, false), this::list));
        tools.add(SandboxTools.spec("sandbox_exec_kill",
                "Kill a background exec and everything it started.",
                Schemas.object("execId").string("execId", "The execId to kill").build(),
                SandboxTools.hints(false, true), this::kill));
    }

    private CallToolResult runCommand(ToolArguments arguments) throws Exception {
        String command = arguments.requiredNonBlank("command");
        int timeout = arguments.optionalInt("timeoutSeconds", 30, 1, 300);
        CommandResult result = commands.run(command, Duration.ofSeconds(timeout));
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("command", result.command());
        fields.put("exitCode", result.exitCode());
        fields.put("stdout", result.stdout());
        fields.put("stderr", result.stderr());
        fields.put("timedOut", result.timedOut());
        fields.put("truncated", result.truncated());
        fields.put("durationMs", result.durationMillis());
        return results.ok(fields);
    }

    private CallToolResult startBackground(ToolArguments arguments) throws Exception {
        String command = arguments.requiredNonBlank("command");
        int timeout = arguments.optionalInt("timeoutSeconds", 600, 1, 3600);
        BackgroundExec exec = execs.start(command, Duration.ofSeconds(timeout));
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("execId", exec.execId());
        fields.put("status", exec.status().word());
        return results.ok(fields);
    }

    private CallToolResult status(ToolArguments arguments) throws Exception {
        String execId = arguments.requiredString("execId");
        int offset = arguments.optionalInt("offset", 0, 0, Integer.MAX_VALUE);
        int wait = arguments.optionalInt("waitSeconds", 0, 0, 30);
        Optional<BackgroundExec> found = execs.status(execId, offset, Duration.ofSeconds(wait));
        if (found.isEmpty()) {
            return unknown(execId);
        }
        BackgroundExec exec = found.get();
        Map<String, Object> fields = summary(exec);
        fields.put("output", exec.output());
        fields.put("offset", exec.offset());
        fields.put("nextOffset", exec.nextOffset());
        fields.put("truncated", exec.truncated());
        return results.ok(fields);
    }

    private CallToolResult list(ToolArguments arguments) {
        List<Map<String, Object>> all = new ArrayList<>();
        for (BackgroundExec exec : execs.list()) {
            Map<String, Object> fields = summary(exec);
            fields.put("startedAt", exec.startedAt().toString());
            all.add(fields);
        }
        return results.ok(Map.of("execs", all));
    }

    private CallToolResult kill(ToolArguments arguments) throws Exception {
        String execId = arguments.requiredString("execId");
        Optional<BackgroundExec> killed = execs.kill(execId);
        return killed.isEmpty() ? unknown(execId) : results.ok(summary(killed.get()));
    }

    private static Map<String, Object> summary(BackgroundExec exec) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("execId", exec.execId());
        fields.put("command", exec.command());
        fields.put("status", exec.status().word());
        fields.put("exitCode", exec.exitCode());
        return fields;
    }

    private static CallToolResult unknown(String execId) {
        return ToolResults.error("no background exec with execId '" + execId + "'");
    }
}
