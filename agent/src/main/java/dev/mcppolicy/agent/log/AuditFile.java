package dev.mcppolicy.agent.log;

import dev.mcppolicy.agent.Diagnostics;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** The JSON-lines audit file (SPEC §2 {@code audit}): one object per decision, rotated to {@code .1} by size. */
final class AuditFile {
    static final long ROTATE_BYTES = 50L * 1024 * 1024;

    private final Path path;
    private OutputStream out;
    private long size;

    AuditFile(Path path) {
        this.path = path.toAbsolutePath();
    }

    synchronized void append(String json) {
        try {
            if (out == null) {
                open();
            }
            byte[] bytes = (json + "\n").getBytes(StandardCharsets.UTF_8);
            if (size + bytes.length > ROTATE_BYTES && size > 0) {
                out.close();
                Files.move(path, path.resolveSibling(path.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING);
                open();
            }
            out.write(bytes);
            out.flush();
            size += bytes.length;
        } catch (IOException e) {
            Diagnostics.adviceError("audit file " + path, e);
            out = null;
        }
    }

    private void open() throws IOException {
        if (path.getParent() != null) {
            Files.createDirectories(path.getParent());
        }
        out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        size = Files.size(path);
    }
}
