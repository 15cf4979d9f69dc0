package dev.mcppolicy.examples.spring;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.stereotype.Component;

/**
 * The background-command tools of EasyBits' MCP server, with its names and arguments, as {@code @Tool} methods.
 * They run nothing (this is an example): a started command is only remembered, as a dry run.
 */
@Component
public class SandboxExecTools {
    /** What {@code sandbox_exec_background} answers, and {@code sandbox_exec_status} with the command. */
    public record Exec(String execId, String status, String command) {
    }

    private final Map<String, Exec> execs = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();

    @Tool(name = "sandbox_exec_background", description = "Start a long-running command in the background. Returns "
            + "{ execId, status } immediately. Poll with sandbox_exec_status; stop with sandbox_exec_kill.")
    public Exec execBackground(@ToolParam(description = "the sandbox") String sandboxId,
            @ToolParam(description = "the command to start") String command,
            @ToolParam(description = "its working directory", required = false) String cwd,
            @ToolParam(description = "its environment variables", required = false) Map<String, String> env) {
        String execId = "exec-" + ids.incrementAndGet();
        Exec exec = new Exec(execId, "dry run: not started", command);
        execs.put(sandboxId + "/" + execId, exec);
        return exec;
    }

    @Tool(name = "sandbox_exec_status", description = "The status of a background command")
    public Exec execStatus(String sandboxId, String execId) {
        return execs.getOrDefault(sandboxId + "/" + execId, new Exec(execId, "unknown", ""));
    }

    @Tool(name = "sandbox_exec_list", description = "The background commands of a sandbox")
    public List<Exec> execList(String sandboxId) {
        return execs.entrySet().stream().filter(e -> e.getKey().startsWith(sandboxId + "/")).map(Map.Entry::getValue).toList();
    }

    @Tool(name = "sandbox_exec_kill", description = "Stop a background command")
    public Exec execKill(String sandboxId, String execId) {
        Exec exec = execs.remove(sandboxId + "/" + execId);
        return exec == null ? new Exec(execId, "unknown", "") : new Exec(execId, "dry run: stopped", exec.command());
    }

    @Tool(name = "sandbox_expose_port", description = "Expose a port of the sandbox on a public URL")
    public String exposePort(String sandboxId, int port) {
        return "dry run: https://" + sandboxId + "-" + port + ".sandbox.example would serve port " + port;
    }
}
