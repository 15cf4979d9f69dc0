package dev.mcppolicy.demo.tools;

import dev.mcppolicy.demo.sandbox.Sandbox;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code read_file}, {@code write_file} and {@code delete_file}, each confined to the sandbox. */
final class FileTools {
    /** The largest file {@code read_file} returns. */
    static final long READ_LIMIT = 1024 * 1024;
    private static final String PATH_HELP = "Path relative to the sandbox directory";

    private final Sandbox sandbox;
    private final ToolResults results;

    FileTools(Sandbox sandbox, ToolResults results) {
        this.sandbox = sandbox;
        this.results = results;
    }

    void addTo(List<SyncToolSpecification> tools) {
        tools.add(SandboxTools.spec("read_file", "Read a UTF-8 text file of the sandbox (at most 1 MiB).",
                Schemas.object("path").string("path", PATH_HELP).build(),
                SandboxTools.hints(true, false), this::read));
        tools.add(SandboxTools.spec("write_file",
                "Write text to a file of the sandbox, creating missing directories; append=true appends.",
                Schemas.object("path", "content")
                        .string("path", PATH_HELP)
                        .string("content", "The text to write, as UTF-8")
                        .bool("append", "Append instead of replacing the file", false)
                        .build(),
                SandboxTools.hints(false, true), this::write));
        tools.add(SandboxTools.spec("delete_file", "Delete a file or an empty directory of the sandbox.",
                Schemas.object("path").string("path", PATH_HELP).build(),
                SandboxTools.hints(false, true), this::delete));
    }

    private CallToolResult read(ToolArguments arguments) throws IOException {
        Path file = sandbox.resolve(arguments.requiredString("path"));
        if (!Files.isRegularFile(file)) {
            return ToolResults.error("no such file: " + sandbox.relative(file));
        }
        long size = Files.size(file);
        if (size > READ_LIMIT) {
            return ToolResults.error("file is " + size + " bytes; read_file returns at most " + READ_LIMIT);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("path", sandbox.relative(file));
        fields.put("size", size);
        fields.put("content", Files.readString(file, StandardCharsets.UTF_8));
        return results.ok(fields);
    }

    private CallToolResult write(ToolArguments arguments) throws IOException {
        Path file = sandbox.resolve(arguments.requiredString("path"));
        byte[] bytes = arguments.requiredString("content").getBytes(StandardCharsets.UTF_8);
        boolean append = arguments.optionalBoolean("append", false);
        if (Files.isDirectory(file)) {
            return ToolResults.error("is a directory: " + sandbox.relative(file));
        }
        Files.createDirectories(file.getParent());
        if (append) {
            Files.write(file, bytes, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } else {
            Files.write(file, bytes);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("path", sandbox.relative(file));
        fields.put("bytesWritten", bytes.length);
        fields.put("append", append);
        return results.ok(fields);
    }

    private CallToolResult delete(ToolArguments arguments) throws IOException {
        Path target = sandbox.resolve(arguments.requiredString("path"));
        if (target.equals(sandbox.root())) {
            return ToolResults.error("the sandbox directory itself cannot be deleted");
        }
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            return ToolResults.error("no such file: " + sandbox.relative(target));
        }
        try {
            Files.delete(target);
        } catch (DirectoryNotEmptyException e) {
            return ToolResults.error("directory is not empty: " + sandbox.relative(target));
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("path", sandbox.relative(target));
        fields.put("deleted", true);
        return results.ok(fields);
    }
}
