package dev.mcppolicy.demo.tools;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/** What a tool does with its arguments; checked exceptions become tool errors in {@link SandboxTools}. */
@FunctionalInterface
interface ToolBody {
    CallToolResult call(ToolArguments arguments) throws Exception;
}
