package dev.mcppolicy.demo.tools;

import dev.mcppolicy.demo.exec.BackgroundExecs;
import dev.mcppolicy.demo.exec.CommandRunner;
import dev.mcppolicy.demo.sandbox.Sandbox;
import dev.mcppolicy.demo.sandbox.SandboxEscapeException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The eight tools of the sandbox server, in the shape of the sandbox-execution MCP servers AI agents
 * call (E2B {@code run_command}, EasyBits {@code sandbox_exec_*}). Each call is one line in the log;
 * a caller's mistake (a bad path, an unknown exec) is a tool error, never a crash.
 */
public final class SandboxTools {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxTools.class);

    private SandboxTools() {
    }

    /**
     * The tools, each running {@code afterEachCall} once its body is done, before its result goes back:
     * the server keeps its resource list in step with the sandbox's files so.
     */
    public static List<SyncToolSpecification> all(
            Sandbox sandbox, CommandRunner commands, BackgroundExecs execs, McpJsonMapper json, Runnable afterEachCall) {
        ToolResults results = new ToolResults(json);
        List<SyncToolSpecification> all = new ArrayList<>();
        new CommandTools(commands, execs, results).addTo(all);
        new FileTools(sandbox, results).addTo(all);
        List<SyncToolSpecification> followed = new ArrayList<>();
        for (SyncToolSpecification spec : all) {
            followed.add(SyncToolSpecification.builder()
                    .tool(spec.tool())
                    .callHandler((exchange, request) -> {
                        try {
                            return spec.callHandler().apply(exchange, request);
                        } finally {
                            afterEachCall.run();
                        }
                    })
                    .build());
        }
        return List.copyOf(followed);
    }

    static SyncToolSpecification spec(
            String name, String description, Map<String, Object> inputSchema, ToolAnnotations hints, ToolBody body) {
        Tool tool = Tool.builder(name, inputSchema)
                .description(description)
                .annotations(hints)
                .build();
        return SyncToolSpecification.builder()
                .tool(tool)
                .callHandler((exchange, request) -> call(name, body, request.arguments()))
                .build();
    }

    static ToolAnnotations hints(boolean readOnly, boolean destructive) {
        return ToolAnnotations.builder().readOnlyHint(readOnly).destructiveHint(destructive).build();
    }

    private static CallToolResult call(String name, ToolBody body, Map<String, Object> arguments) {
        long started = System.nanoTime();
        CallToolResult result;
        try {
            result = body.call(new ToolArguments(arguments));
        } catch (SandboxEscapeException | IllegalArgumentException e) {
            result = ToolResults.error(e.getMessage());
        } catch (IOException e) {
            result = ToolResults.error("I/O error: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result = ToolResults.error("interrupted");
        } catch (Exception e) {
            LOG.error("tool {} failed", name, e);
            result = ToolResults.error("internal error: " + e);
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        if (Boolean.TRUE.equals(result.isError())) {
            LOG.info("tool {} -> error ({} ms): {}", name, millis, firstText(result));
        } else {
            LOG.info("tool {} -> ok ({} ms)", name, millis);
        }
        return result;
    }

    private static String firstText(CallToolResult result) {
        return result.content().isEmpty() || !(result.content().get(0) instanceof TextContent) ? ""
                : ((TextContent) result.content().get(0)).text();
    }
}
